import { Module } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { EventRelay } from './event-relay';
import { MessagingClient } from './messaging.client';
import { RealtimeGateway } from './realtime.gateway';
import { RoomGuard } from './room-guard';
import { SocketLimits, socketLimitSettings } from './socket-limits';

/**
 * socket.io endpoint of the gateway (ARCHITECTURE §7). Uses what GatewayModule exports
 * globally: JwtModule (JWT_SECRET), GATEWAY_CONFIG (BUS, REDIS_URL, KAFKA_BROKERS) and
 * SERVICE_LINK (messaging).
 */
@Module({
  providers: [
    RealtimeGateway,
    MessagingClient,
    RoomGuard,
    EventRelay,
    { provide: SocketLimits, inject: [GATEWAY_CONFIG], useFactory: (config: GatewayConfig) => new SocketLimits(socketLimitSettings(config)) },
  ],
})
export class RealtimeModule {}
