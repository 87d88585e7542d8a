export * from './error-codes';
export * from './error-status';
