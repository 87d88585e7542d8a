export * from './test-service';
export * from './store-probe';
export * from './server-build';
