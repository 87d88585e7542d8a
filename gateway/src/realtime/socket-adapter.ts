import { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import Redis from 'ioredis';
import type { Server, ServerOptions } from 'socket.io';
import { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';

export interface SocketAdapterSettings {
  /** Set: rooms span every gateway sharing this Redis (socket.io Redis adapter). */
  redisUrl?: string;
  /** Allowed cross-origin caller(s), comma-separated; unset means same origin only. */
  appOrigin?: string;
}

/** socket.io on the gateway's HTTP server, both transports, with the Redis adapter when REDIS_URL is set. */
export class RealtimeIoAdapter extends IoAdapter {
  private redis: Redis[] = [];
  private redisAdapter?: ReturnType<typeof createAdapter>;

  constructor(
    app: INestApplicationContext,
    private readonly settings: SocketAdapterSettings,
  ) {
    super(app);
  }

  /** Opens the Redis publisher and subscriber; fails fast when Redis cannot be reached. */
  async connect(): Promise<void> {
    if (!this.settings.redisUrl) return;
    const pub = new Redis(this.settings.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    this.redis = [pub, sub];
    try {
      await Promise.all([pub.connect(), sub.connect()]);
    } catch (err) {
      this.redis.forEach((c) => c.disconnect());
      throw new Error(`socket.io Redis adapter: cannot reach ${this.settings.redisUrl}: ${(err as Error).message}`);
    }
    this.redisAdapter = createAdapter(pub, sub);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const origins = this.settings.appOrigin?.split(',').map((o) => o.trim()).filter(Boolean);
    const server: Server = super.createIOServer(port, {
      ...options,
      path: '/socket.io',
      transports: ['polling', 'websocket'],
      ...(origins?.length && { cors: { origin: origins, credentials: true } }),
    });
    if (this.redisAdapter) server.adapter(this.redisAdapter);
    return server;
  }

  override async dispose(): Promise<void> {
    await super.dispose();
    await Promise.all(this.redis.map((c) => c.quit().catch(() => c.disconnect())));
    this.redis = [];
  }
}

/** For the gateway's bootstrap: `app.useWebSocketAdapter(await createSocketAdapter(app))` before listen/init. */
export async function createSocketAdapter(app: INestApplicationContext): Promise<RealtimeIoAdapter> {
  const config = app.get<GatewayConfig>(GATEWAY_CONFIG);
  const adapter = new RealtimeIoAdapter(app, { redisUrl: config.REDIS_URL, appOrigin: config.APP_ORIGIN });
  await adapter.connect();
  return adapter;
}
