export * from './test-service';
export * from './store-probe';
