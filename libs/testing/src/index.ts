export * from './test-service';
