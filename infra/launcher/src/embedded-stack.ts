import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { sharedMemoryTransport } from '@app/bus';
import { buildService, loadConfig, PlatformConfig, startServiceApp } from '@app/platform';
import { createGatewayApp, loadGatewayConfig } from '../../../gateway/src/gateway.app';
import { ServiceUrls } from '../../../gateway/src/proxy/service-proxy';
import { ServiceName } from '../../../gateway/src/proxy/routes';
import { embeddedJwtSecret } from './jwt-secret';
import { migrateNedbData } from './nedb-migration';
import { SeedContext } from './seed/seed-client';
import { runSeed } from './seed/run-seed';
import { SERVICE_CATALOGUE } from './service-catalogue';

export interface EmbeddedStackOptions {
  /** Gateway port; 0 picks a free one. */
  port?: number;
  host?: string;
  /** Data root (one SQLite file per service, media, the JWT secret); ':memory:' for tests. */
  dataDir?: string;
  /** Seed demo data when the data dir is new. */
  seed?: boolean;
  /** Extra environment for every part (RATE_LIMITS, LOG_LEVEL...). */
  env?: Record<string, string>;
}

export interface EmbeddedStack {
  url: string;
  serviceUrls: ServiceUrls;
  /** The demo members when this start seeded. */
  seeded?: SeedContext;
  /** Waits until every event emitted so far has been handled. */
  settle(): Promise<void>;
  /**
   * Fault drills (issue 11 §3): closes one service's HTTP listener and its open connections,
   * so the gateway meets a refused connection exactly as when that process is gone. Its bus
   * consumer keeps running (in this profile events do not wait for a dead process anyway).
   */
  stopService(name: ServiceName): Promise<void>;
  /** Listens again on the same port: the gateway finds the service where it was, no restart. */
  restartService(name: ServiceName): Promise<void>;
  close(): Promise<void>;
}

function stopListening(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

function listenAgain(server: Server, url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(Number(port), hostname, () => {
      server.off('error', fail);
      done();
    });
  });
}

/**
 * The embedded profile (ARCHITECTURE §2): every service and the gateway in this process,
 * one in-process bus, SQLite under the data dir (or PostgreSQL with STORE=postgres). Services listen on free loopback ports and
 * the gateway proxies to them, exactly as it does across processes.
 */
export async function startEmbeddedStack(options: EmbeddedStackOptions = {}): Promise<EmbeddedStack> {
  const dataDir = options.dataDir === ':memory:' ? ':memory:' : resolve(options.dataDir ?? '.data');
  const isNew = dataDir === ':memory:' || !existsSync(join(dataDir, '.seeded'));
  // SQLite under the data dir; or PostgreSQL for a community whose data moved there (npm run migrate:postgres).
  const store = (options.env?.STORE ?? process.env.STORE) === 'postgres' ? 'postgres' : 'sqlite';
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...options.env,
    STORE: store,
    BUS: 'memory',
    DATA_DIR: dataDir,
    JWT_SECRET: process.env.JWT_SECRET ?? embeddedJwtSecret(dataDir),
  };
  const config = loadConfig(PlatformConfig, 'embedded', env);
  if (store === 'sqlite') await migrateNedbData(dataDir, SERVICE_CATALOGUE.map((e) => e.definition.name));
  const transport = sharedMemoryTransport();
  const apps: INestApplication[] = [];
  const serviceUrls: ServiceUrls = {};
  const serviceApps = new Map<ServiceName, INestApplication>();
  // Until every service and the gateway have subscribed, so nothing a relay sends at boot is missed.
  transport.hold();
  try {
    for (const entry of SERVICE_CATALOGUE) {
      const app = await buildService(entry.definition, { config, transport });
      apps.push(app);
      serviceUrls[entry.definition.name as ServiceName] = await startServiceApp(app, 0);
      serviceApps.set(entry.definition.name as ServiceName, app);
    }
    const gatewayConfig = loadGatewayConfig({ ...env, PORT: String(options.port ?? 3000), HOST: options.host ?? '127.0.0.1' });
    const gateway = await createGatewayApp(gatewayConfig, serviceUrls);
    apps.push(gateway);
    await gateway.listen(gatewayConfig.PORT, gatewayConfig.HOST);
    transport.release();
    const port = (gateway.getHttpServer().address() as { port: number }).port;
    const url = `http://${gatewayConfig.HOST === '0.0.0.0' ? '127.0.0.1' : gatewayConfig.HOST}:${port}`;
    const settle = () => transport.drain();

    let seeded: SeedContext | undefined;
    if (options.seed !== false && isNew) {
      seeded = await runSeed(url, settle);
      if (dataDir !== ':memory:') {
        mkdirSync(dataDir, { recursive: true });
        writeFileSync(join(dataDir, '.seeded'), new Date().toISOString());
      }
    }
    return {
      url,
      serviceUrls,
      seeded,
      settle,
      stopService: (name) => stopListening(serverOf(serviceApps, name)),
      restartService: (name) => listenAgain(serverOf(serviceApps, name), serviceUrls[name] ?? ''),
      close: async () => {
        await settle();
        for (const app of apps.reverse()) await app.close();
      },
    };
  } catch (err) {
    transport.release();
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
    throw err;
  }
}

function serverOf(apps: Map<ServiceName, INestApplication>, name: ServiceName): Server {
  const app = apps.get(name);
  if (!app) throw new Error(`No service named ${name} in this stack`);
  return app.getHttpServer() as Server;
}
