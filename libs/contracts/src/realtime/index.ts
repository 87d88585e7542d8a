export * from './realtime.events';
