import { BusTransport } from './bus.port';
import { MemoryTransport } from './memory/memory-transport';

export interface BusSettings {
  engine: 'memory' | 'redis' | 'kafka';
  redisUrl?: string;
  kafkaBrokers?: string[];
  /** Client id for Kafka, stream-name prefix for Redis. */
  clientId?: string;
}

let shared: MemoryTransport | undefined;

/** The one in-process bus every service of an embedded process shares. */
export function sharedMemoryTransport(): MemoryTransport {
  shared ??= new MemoryTransport();
  return shared;
}

/** Builds the transport named by BUS (ARCHITECTURE §2); engines are loaded only when chosen. */
export function createTransport(settings: BusSettings): BusTransport {
  switch (settings.engine) {
    case 'memory':
      return sharedMemoryTransport();
    case 'redis': {
      if (!settings.redisUrl) throw new Error('BUS=redis needs REDIS_URL (for example redis://127.0.0.1:6379)');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { RedisStreamsTransport } = require('./redis/redis-streams-transport') as typeof import('./redis/redis-streams-transport');
      return new RedisStreamsTransport({ url: settings.redisUrl });
    }
    case 'kafka': {
      if (!settings.kafkaBrokers?.length) throw new Error('BUS=kafka needs KAFKA_BROKERS (for example localhost:9092)');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { KafkaTransport } = require('./kafka/kafka-transport') as typeof import('./kafka/kafka-transport');
      return new KafkaTransport({ brokers: settings.kafkaBrokers, clientId: settings.clientId ?? 'squadreviews' });
    }
  }
}
