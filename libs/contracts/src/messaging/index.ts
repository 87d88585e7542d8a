export * from './messaging.dto';
export * from './messaging.views';
export * from './mentions';
export * from './attachments';
