export * from './notification.dto';
