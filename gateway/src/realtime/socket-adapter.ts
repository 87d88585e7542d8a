import { INestApplicationContext, Logger } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import Redis from 'ioredis';
import { connectRedis } from '@app/store';
import type { ServerOptions } from 'socket.io';
import { RealtimeServer } from './socket-types';
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

  /**
   * Opens the Redis publisher and subscriber. Fails within seconds, naming REDIS_URL, when
   * Redis cannot be reached at boot; once connected, both reconnect through an outage.
   */
  async connect(): Promise<void> {
    const url = this.settings.redisUrl;
    if (!url) return;
    const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    const results = await Promise.allSettled([connectRedis(pub, url), connectRedis(sub, url)]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      // The one that failed has ended already; drop the other.
      for (const client of [pub, sub]) if (client.status !== 'end') client.disconnect();
      throw failed.reason;
    }
    const logger = new Logger('RealtimeIoAdapter');
    for (const [client, label] of [[pub, 'publisher'], [sub, 'subscriber']] as const) watchOutage(client, label, logger);
    this.redis = [pub, sub];
    this.redisAdapter = createAdapter(pub, sub);
  }

  override createIOServer(port: number, options?: ServerOptions): RealtimeServer {
    const origins = this.settings.appOrigin?.split(',').map((o) => o.trim()).filter(Boolean);
    const server: RealtimeServer = super.createIOServer(port, {
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

/** One warning when a connection drops and one line when it is back; without an 'error' listener ioredis prints every retry. */
function watchOutage(client: Redis, label: string, logger: Logger): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (!down) logger.warn(`socket.io Redis adapter (${label}) lost its connection, reconnecting: ${err.message}`);
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.log(`socket.io Redis adapter (${label}) connected again`);
    down = false;
  });
}
