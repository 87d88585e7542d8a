// Placeholder: the Redis Streams transport lands with the bus contract suite.
import { AnyEventEnvelope } from '@app/contracts';
import { BusTransport, Subscription } from '../bus.port';

export interface RedisStreamsOptions {
  url: string;
}

export class RedisStreamsTransport implements BusTransport {
  readonly engine = 'redis' as const;
  constructor(readonly options: RedisStreamsOptions) {}
  async connect(): Promise<void> {
    throw new Error('Redis Streams transport not built yet');
  }
  async publish(_event: AnyEventEnvelope): Promise<void> {
    throw new Error('Redis Streams transport not built yet');
  }
  async subscribe(): Promise<Subscription> {
    throw new Error('Redis Streams transport not built yet');
  }
  async isHealthy(): Promise<boolean> {
    return false;
  }
  async close(): Promise<void> {}
}
