// Real engines for the suites that need them (a private redis-server per suite); test code only.
export * from './redis-server';
export * from './describe-with-redis';
export * from './smtp-inbox';
