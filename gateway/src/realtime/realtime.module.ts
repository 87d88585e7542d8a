import { Module } from '@nestjs/common';
import { EventRelay } from './event-relay';
import { MessagingClient } from './messaging.client';
import { RealtimeGateway } from './realtime.gateway';

/**
 * socket.io endpoint of the gateway (ARCHITECTURE §7). Uses what GatewayModule exports
 * globally: JwtModule (JWT_SECRET), GATEWAY_CONFIG (BUS, REDIS_URL, KAFKA_BROKERS) and
 * GATEWAY_SERVICE_URLS (messaging).
 */
@Module({
  providers: [RealtimeGateway, MessagingClient, EventRelay],
})
export class RealtimeModule {}
