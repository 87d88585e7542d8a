import { DynamicModule, INestApplication, Module, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BusTransport } from '@app/bus';
import { BaseDoc, CollectionDef, Store } from '@app/store';
import { loadConfig, PlatformConfig } from '../config/platform.config';
import { PlatformModule } from '../platform.module';
import { createServiceApp, startServiceApp } from './service-app';
import { tuneHeap } from './process-heap';
import { MetricsServer, startMetricsServer } from '../metrics/metrics-server';

/** What makes a service: its name, its collections and its feature modules. */
export interface ServiceDefinition {
  name: string;
  collections: readonly CollectionDef<BaseDoc>[];
  imports: Array<Type<unknown> | DynamicModule>;
  /** JSON body limit (default 256kb). */
  bodyLimit?: string;
  /** The service's own Fastify plugins (the reviews service's multipart uploads). */
  configureHttp?(app: NestFastifyApplication): Promise<void> | void;
}

export interface ServiceEngines {
  config?: PlatformConfig;
  store?: Store;
  transport?: BusTransport;
}

@Module({})
class ServiceRootModule {}

export function serviceRootModule(definition: ServiceDefinition, engines: ServiceEngines = {}): DynamicModule {
  const config = engines.config ?? loadConfig(PlatformConfig, definition.name);
  return {
    module: ServiceRootModule,
    imports: [
      PlatformModule.forRoot({
        service: definition.name,
        config,
        collections: definition.collections,
        store: engines.store,
        transport: engines.transport,
      }),
      ...definition.imports,
    ],
  };
}

/** The service's app, initialised and consuming its events, not yet listening. */
export function buildService(definition: ServiceDefinition, engines: ServiceEngines = {}): Promise<INestApplication> {
  return createServiceApp(serviceRootModule(definition, engines), {
    service: definition.name,
    bodyLimit: definition.bodyLimit,
    configureHttp: definition.configureHttp,
  });
}

/** Entry point of a service's own process (distributed mode, containers): PORT and HOST from the environment. */
export async function runService(definition: ServiceDefinition): Promise<void> {
  tuneHeap();
  try {
    const config = loadConfig(PlatformConfig, definition.name);
    const app = await buildService(definition, { config });
    app.enableShutdownHooks();
    const url = await startServiceApp(app, Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
    process.stdout.write(JSON.stringify({ level: 30, service: definition.name, msg: `listening on ${url}`, url }) + '\n');
    const metrics = await startConfiguredMetrics(config);
    if (metrics) process.stdout.write(JSON.stringify({ level: 30, service: definition.name, msg: `metrics on ${metrics.url}/metrics`, url: metrics.url }) + '\n');
  } catch (err) {
    process.stderr.write(`${definition.name} failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

/** The metrics port when METRICS_PORT is set (one per process), none otherwise. */
export function startConfiguredMetrics(config: PlatformConfig): Promise<MetricsServer | undefined> {
  if (config.METRICS_PORT === undefined) return Promise.resolve(undefined);
  return startMetricsServer(config.METRICS_PORT, config.METRICS_HOST);
}
