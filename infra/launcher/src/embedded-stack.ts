import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { BusTransport, createTransport, type RedisStreamsTransport, sharedMemoryTransport } from '@app/bus';
import { buildService, loadConfig, MailOutboxWorker, PlatformConfig, serviceRouter, startConfiguredMetrics, startServiceApp } from '@app/platform';
import { createGatewayApp, loadGatewayConfig } from '../../../gateway/src/gateway.app';
import { InProcessLink, ServiceRouters } from '../../../gateway/src/link/in-process-link';
import { ServiceUrls } from '../../../gateway/src/proxy/service-proxy';
import { ownerOf, ServiceName } from '../../../gateway/src/proxy/routes';
import { StartupGate } from '../../../gateway/src/access/starting';
import { embeddedJwtSecret } from './jwt-secret';
import { migrateNedbData } from './nedb-migration';
import { SeedContext } from './seed/seed-client';
import { runSeed } from './seed/run-seed';
import { StackImporter, stackImporter } from './seed/stack-importer';
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
  /**
   * How the gateway reaches the services: `in-process` (the default: each service's router in
   * this process, one HTTP parse per request) or `http` (over loopback sockets, as across
   * processes; for comparing the two).
   */
  link?: 'in-process' | 'http';
  /**
   * The bus: the shared in-process one by default. `redisUrl` gives each service its own Redis
   * Streams connection, as separate processes have (the convergence test runs on both).
   */
  bus?: { redisUrl: string; claimIdleMs?: number };
  /** Wraps the transport each service publishes and consumes through (fault injection under test). */
  wrapTransport?: (transport: BusTransport, service: string) => BusTransport;
}

export interface EmbeddedStack {
  url: string;
  /** Where Prometheus scrapes the process's /metrics, when METRICS_PORT is set (never on `url`). */
  metricsUrl?: string;
  serviceUrls: ServiceUrls;
  /** The demo members when this start seeded. */
  seeded?: SeedContext;
  /** Why the demo seed stopped, when it failed: logged and reported, never fatal once the port is open. */
  seedFailure?: string;
  /** Waits until every event emitted so far has been handled. */
  settle(): Promise<void>;
  /** Sends every mail the services have queued now, not at the outboxes' pace (the bench, before it measures). */
  sendQueuedMail(): Promise<void>;
  /** The services' bulk imports, in process (docs/decisions/import.md). */
  importer: StackImporter;
  /**
   * Fault drills (issue 11 §3): the service answers as a process that is gone. The in-process
   * link refuses its requests (those in flight included) with the same 503 a refused connection
   * gives, and its HTTP listener closes with its open connections. Its bus consumer keeps running
   * (in this profile events do not wait for a dead process anyway).
   */
  stopService(name: ServiceName): Promise<void>;
  /** Back on the link and listening on the same port: the gateway finds the service where it was, no restart. */
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
 * one in-process bus, SQLite under the data dir (or
 * PostgreSQL with STORE=postgres). The gateway hands each request to the owning
 * service's router through the in-process link (ARCHITECTURE §3 "Link"). Services still listen
 * on free loopback ports (`serviceUrls`): for the gateway's own fan-out calls (API docs, search,
 * member export), a second gateway over HTTP, and tests that reach a service directly.
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
    BUS: options.bus ? 'redis' : 'memory',
    ...(options.bus && { REDIS_URL: options.bus.redisUrl }),
    DATA_DIR: dataDir,
    JWT_SECRET: process.env.JWT_SECRET ?? embeddedJwtSecret(dataDir),
  };
  const config = loadConfig(PlatformConfig, 'embedded', env);
  if (store === 'sqlite') await migrateNedbData(dataDir, SERVICE_CATALOGUE.map((e) => e.definition.name));
  const transport = sharedMemoryTransport();
  const redisBus = options.bus;
  const transportFor = (service: string): BusTransport => {
    const base = redisBus ? createTransport({ engine: 'redis', redisUrl: redisBus.redisUrl, claimIdleMs: redisBus.claimIdleMs }) : transport;
    return options.wrapTransport ? options.wrapTransport(base, service) : base;
  };
  // On Redis, one more connection that only watches the streams, for `settle`.
  const observer = redisBus ? (createTransport({ engine: 'redis', redisUrl: redisBus.redisUrl }) as RedisStreamsTransport) : undefined;
  const apps: INestApplication[] = [];
  const closers: Array<() => Promise<void>> = [];
  const serviceUrls: ServiceUrls = {};
  const serviceApps = new Map<ServiceName, INestApplication>();
  const routers: ServiceRouters = {};
  // Until every service and the gateway have subscribed, so nothing a relay sends at boot is missed.
  transport.hold();
  try {
    for (const entry of SERVICE_CATALOGUE) {
      const app = await buildService(entry.definition, { config, transport: transportFor(entry.definition.name) });
      apps.push(app);
      serviceUrls[entry.definition.name as ServiceName] = await startServiceApp(app, 0);
      serviceApps.set(entry.definition.name as ServiceName, app);
      routers[entry.definition.name as ServiceName] = serviceRouter(app);
    }
    const host = options.host ?? '127.0.0.1';
    // Port 0 is taken now and held while the gateway is built, so the origin links are built from
    // (APP_ORIGIN, else the address printed) names the port the gateway then listens on.
    const reserved = options.port === 0 ? await reservePort(host) : undefined;
    const port = reserved?.port ?? options.port ?? 3000;
    const address = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
    const gatewayConfig = loadGatewayConfig({ APP_ORIGIN: address, ...env, PORT: String(port), HOST: host });
    const link = options.link === 'http' ? undefined : new InProcessLink(routers, gatewayConfig.UPSTREAM_TIMEOUT_MS);
    const seeding = options.seed !== false && isNew;
    // The port opens at once and answers 503 "starting" until the demo seed has settled.
    const gate = new StartupGate();
    if (seeding) gate.close();
    const gateway = await createGatewayApp(gatewayConfig, serviceUrls, link, gate).finally(() => reserved?.release());
    apps.push(gateway);
    await gateway.listen(gatewayConfig.PORT, gatewayConfig.HOST);
    // One process, one registry: one metrics port for the gateway and every service (METRICS_PORT).
    const metrics = await startConfiguredMetrics(config);
    if (metrics) closers.push(metrics.close);
    transport.release();
    const url = address;
    const settle = () => (observer ? observer.drain() : transport.drain());
    const importer = stackImporter(serviceApps, settle);

    let seeded: SeedContext | undefined;
    let seedFailure: string | undefined;
    if (seeding) {
      // Inside the stack: imports in process, the rest straight to the owning service (no gateway limits).
      const route = (path: string, method: string) => {
        const owner = ownerOf(`/api${path}`, method);
        const base = owner && serviceUrls[owner];
        if (!base) throw new Error(`No service owns /api${path}`);
        return base;
      };
      try {
        seeded = await runSeed(route, importer);
        await settle();
      } catch (err) {
        seedFailure = (err as Error).message;
        process.stderr.write(`The demo seed failed: ${(err as Error).stack ?? seedFailure}\n`);
      }
      // Marked either way: a seed that stopped half way is not run again over what it made.
      if (dataDir !== ':memory:') {
        mkdirSync(dataDir, { recursive: true });
        writeFileSync(join(dataDir, '.seeded'), seedFailure ? `${new Date().toISOString()} failed: ${seedFailure}\n` : new Date().toISOString());
      }
      gate.open();
    }
    return {
      url,
      metricsUrl: metrics?.url,
      serviceUrls,
      seeded,
      seedFailure,
      settle,
      sendQueuedMail: async () => {
        for (const app of serviceApps.values()) await mailWorkerOf(app)?.sendDue();
      },
      importer,
      stopService: async (name) => {
        const server = serverOf(serviceApps, name);
        link?.stop(name);
        await stopListening(server);
      },
      restartService: async (name) => {
        await listenAgain(serverOf(serviceApps, name), serviceUrls[name] ?? '');
        link?.start(name);
      },
      close: async () => {
        await settle();
        for (const close of closers) await close();
        for (const app of apps.reverse()) await app.close();
        await observer?.close();
      },
    };
  } catch (err) {
    transport.release();
    for (const close of closers) await close().catch(() => undefined);
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
    await observer?.close();
    throw err;
  }
}

/** A free port on `host`, held by a bare listener until `release` (which resolves once it is free again). */
function reservePort(host: string): Promise<{ port: number; release: () => Promise<void> }> {
  return new Promise((resolvePort, reject) => {
    const holder = createServer();
    holder.once('error', reject);
    holder.listen(0, host, () => {
      const { port } = holder.address() as AddressInfo;
      resolvePort({ port, release: () => new Promise<void>((done) => holder.close(() => done())) });
    });
  });
}

/**
 * The service's mail outbox worker, when it sends mail (auth, notifications). Looked up through
 * the ModuleRef: a miss on `app.get` itself aborts the process.
 */
function mailWorkerOf(app: INestApplication): MailOutboxWorker | undefined {
  try {
    return app.get(ModuleRef).get(MailOutboxWorker, { strict: false });
  } catch {
    return undefined;
  }
}

function serverOf(apps: Map<ServiceName, INestApplication>, name: ServiceName): Server {
  const app = apps.get(name);
  if (!app) throw new Error(`No service named ${name} in this stack`);
  return app.getHttpServer() as Server;
}
