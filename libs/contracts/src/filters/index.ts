export * from './keyword-match';
export * from './filter.dto';
