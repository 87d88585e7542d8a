export * from './moderation.dto';
export * from './report-reasons';
