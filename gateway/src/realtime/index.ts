export { RealtimeModule } from './realtime.module';
export { createSocketAdapter, RealtimeIoAdapter } from './socket-adapter';
