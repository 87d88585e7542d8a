import { INestApplication } from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
import { buildService, loadConfig, PlatformConfig, startServiceApp } from '@app/platform';
import { RedisServerHandle, startRedisServer } from '@app/testing/engines';
import { createGatewayApp, loadGatewayConfig } from '../../../gateway/src/gateway.app';
import { createSocketAdapter, RealtimeIoAdapter } from '../../../gateway/src/realtime';
import { authService } from '../../../services/auth/src/auth.service-definition';
import { messagingService } from '../../../services/messaging/src/messaging.service-definition';

/** Auth and messaging behind two gateway replicas, all over a private Redis (bus, socket fan-out). */
export interface TwoGateways {
  gatewayUrls: [string, string];
  close(): Promise<void>;
}

/** The adapter the app will use, when the gateway's bootstrap already chose one. */
function adapterOf(app: INestApplication): unknown {
  return (app as unknown as { config?: ApplicationConfig }).config?.getIoAdapter();
}

export async function startTwoGateways(): Promise<TwoGateways> {
  const redis: RedisServerHandle = await startRedisServer();
  const apps: INestApplication[] = [];
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    BUS: 'redis',
    REDIS_URL: redis.url,
    STORE: 'sqlite',
    DATA_DIR: ':memory:',
    JWT_SECRET: 'redis-test-secret-that-is-at-least-32-chars',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
  };
  const serviceUrls: Record<string, string> = {};
  for (const definition of [authService, messagingService]) {
    const app = await buildService(definition, { config: loadConfig(PlatformConfig, definition.name, env) });
    apps.push(app);
    serviceUrls[definition.name] = await startServiceApp(app, 0);
  }
  const gatewayUrls: string[] = [];
  for (let i = 0; i < 2; i++) {
    const gateway = await createGatewayApp(loadGatewayConfig({ ...env, PORT: '0', HOST: '127.0.0.1' }), serviceUrls);
    if (!(adapterOf(gateway) instanceof RealtimeIoAdapter)) gateway.useWebSocketAdapter(await createSocketAdapter(gateway));
    apps.push(gateway);
    await gateway.listen(0, '127.0.0.1');
    gatewayUrls.push(`http://127.0.0.1:${(gateway.getHttpServer().address() as { port: number }).port}`);
  }
  return {
    gatewayUrls: gatewayUrls as [string, string],
    close: async () => {
      for (const app of apps.reverse()) await app.close();
      await redis.stop();
    },
  };
}
