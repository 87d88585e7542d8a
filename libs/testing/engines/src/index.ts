// Real engines for the suites that need them (a private redis-server or PostgreSQL per suite); test code only.
export * from './redis-server';
export * from './describe-with-redis';
export * from './postgres-server';
export * from './describe-with-postgres';
export * from './smtp-inbox';
