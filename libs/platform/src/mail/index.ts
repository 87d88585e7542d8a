export * from './mailer';
export * from './mail-outbox';
export * from './mail.module';
