export * from './bus.port';
export * from './bus.tokens';
export * from './bus.module';
export * from './bus-server';
export * from './event-bus';
export * from './on-event.decorator';
export * from './outbox.collection';
export * from './transport.factory';
export { MemoryTransport } from './memory/memory-transport';
