// Test helpers for suites that need a real engine; not part of the library's runtime surface.
export * from './redis-server';
