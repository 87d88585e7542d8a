export * from './member-export.module';
