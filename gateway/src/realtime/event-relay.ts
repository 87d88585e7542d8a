import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AnyEventEnvelope, EventType, isEventEnvelope } from '@app/contracts';
import { BusTransport, createTransport, Subscription } from '@app/bus';
import { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { RealtimeGateway } from './realtime.gateway';
import { userRoom } from './rooms';

const RELAYED: EventType[] = ['message.sent', 'notification.created'];

/**
 * Pushes bus events to sockets. Each gateway reads every event (its own broadcast group:
 * the `broadcast:` prefix makes the transports start at the newest entry and drop the group
 * on close) and emits to its own sockets only (`server.local`), so with the Redis adapter
 * each member's socket gets each event exactly once, whichever gateway it is on.
 */
@Injectable()
export class EventRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventRelay.name);
  private transport?: BusTransport;
  private subscription?: Subscription;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly gateway: RealtimeGateway,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const transport = createTransport({
      engine: this.config.BUS,
      redisUrl: this.config.REDIS_URL,
      kafkaBrokers: this.config.KAFKA_BROKERS?.split(',').map((b) => b.trim()),
      clientId: 'gateway',
    });
    this.transport = transport;
    await transport.connect();
    const name = `gateway-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.subscription = await transport.subscribe({
      group: `broadcast:${name}`,
      consumer: name,
      types: RELAYED,
      handler: async (event) => this.relay(event),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
    // The in-process bus is shared with the services of this process: its owner closes it.
    if (this.transport && this.transport.engine !== 'memory') await this.transport.close();
  }

  /** Never throws: a push that cannot be made is not worth redelivering to every gateway. */
  relay(event: AnyEventEnvelope): void {
    if (!isEventEnvelope(event)) {
      this.logger.error('Dropped a malformed event');
      return;
    }
    const local = this.gateway.server.local;
    if (event.type === 'message.sent') {
      // One emit to all the members' rooms: a socket in several of them still gets it once.
      local.to(event.payload.memberIds.map(userRoom)).emit('new-message', event.payload.message);
    } else if (event.type === 'notification.created' && event.payload.push) {
      local.to(userRoom(event.payload.recipientId)).emit('notification', event.payload.notification);
    }
  }
}
