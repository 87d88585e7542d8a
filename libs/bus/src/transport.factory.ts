import { BusTransport } from './bus.port';
import { MemoryTransport } from './memory/memory-transport';

export interface BusSettings {
  engine: 'memory' | 'redis' | 'kafka';
  redisUrl?: string;
  kafkaBrokers?: string[];
  /** Client id for Kafka, stream-name prefix for Redis. */
  clientId?: string;
  /** Redis Streams: how long an entry stays pending before another consumer takes it over. */
  claimIdleMs?: number;
}

/** BUS_CLAIM_IDLE_MS: a short take-over time for tests that kill a replica (default 30 s in the transport). */
function claimIdleFromEnv(): number | undefined {
  const raw = process.env.BUS_CLAIM_IDLE_MS;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100) throw new Error(`BUS_CLAIM_IDLE_MS must be an integer of at least 100 (got "${raw}")`);
  return ms;
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
      return new RedisStreamsTransport({ url: settings.redisUrl, claimIdleMs: settings.claimIdleMs ?? claimIdleFromEnv() });
    }
    case 'kafka': {
      if (!settings.kafkaBrokers?.length) throw new Error('BUS=kafka needs KAFKA_BROKERS (for example localhost:9092)');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { KafkaTransport } = require('./kafka/kafka-transport') as typeof import('./kafka/kafka-transport');
      return new KafkaTransport({ brokers: settings.kafkaBrokers, clientId: settings.clientId ?? 'squadreviews' });
    }
  }
}
