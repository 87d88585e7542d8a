export * from './messaging.dto';
export * from './messaging.views';
