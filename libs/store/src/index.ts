export * from './store.port';
export * from './store.errors';
export * from './store.factory';
export * from './store.module';
export * from './ids';
export { NedbStore } from './nedb/nedb-store';
