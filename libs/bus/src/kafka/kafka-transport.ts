// Placeholder: the Kafka transport lands with the bus contract suite.
import { AnyEventEnvelope } from '@app/contracts';
import { BusTransport, Subscription } from '../bus.port';

export interface KafkaOptions {
  brokers: string[];
  clientId: string;
}

export class KafkaTransport implements BusTransport {
  readonly engine = 'kafka' as const;
  constructor(readonly options: KafkaOptions) {}
  async connect(): Promise<void> {
    throw new Error('Kafka transport not built yet');
  }
  async publish(_event: AnyEventEnvelope): Promise<void> {
    throw new Error('Kafka transport not built yet');
  }
  async subscribe(): Promise<Subscription> {
    throw new Error('Kafka transport not built yet');
  }
  async isHealthy(): Promise<boolean> {
    return false;
  }
  async close(): Promise<void> {}
}
