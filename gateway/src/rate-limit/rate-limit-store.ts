import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { connectRedis } from '@app/store';
import { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';

/**
 * Where the rate-limit windows are counted: Redis when REDIS_URL is set and limits are on
 * (every gateway replica shares the windows), in memory otherwise (`redis` undefined).
 * Connected when the app initialises: a REDIS_URL that cannot be reached stops the gateway
 * within seconds. Once up, a Redis outage does not refuse requests: with no offline queue
 * each command fails at once and the limits fall back to their in-memory insurance.
 */
@Injectable()
export class RateLimitStore implements OnModuleInit, OnApplicationShutdown {
  readonly redis?: Redis;
  private readonly url?: string;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.url = config.RATE_LIMITS === 'on' ? config.REDIS_URL : undefined;
    if (!this.url) return;
    this.redis = new Redis(this.url, { lazyConnect: true, enableOfflineQueue: false });
    // Failed commands reach the limiter (which uses its insurance); ioredis would print each retry otherwise.
    this.redis.on('error', () => undefined);
  }

  async onModuleInit(): Promise<void> {
    if (this.redis && this.url && this.redis.status === 'wait') await connectRedis(this.redis, this.url);
  }

  async onApplicationShutdown(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'end' || redis.status === 'wait') return;
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
  }
}
