import { BadRequestException, DynamicModule, INestApplication } from '@nestjs/common';
import { json, urlencoded } from 'express';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger as PinoLogger } from 'pino';
import { BUS_TRANSPORT, BusServer, BusTransport, inboxCollection } from '@app/bus';
import { STORE, Store } from '@app/store';
import { AllExceptionsFilter } from '../http/exception.filter';
import { EnvelopeInterceptor } from '../http/envelope.interceptor';
import { createValidationPipe } from '../http/validation';
import { requestLogging } from '../logging/logger';
import { eventLag, eventsHandled } from '../metrics/metrics';
import { MetricsInterceptor } from '../metrics/metrics.interceptor';
import { SERVICE_LOGGER } from '../platform.tokens';
import { serveOpenApi } from './openapi';

export const API_PREFIX = 'api';

/** Parser failures get our own wording; the parser's message would echo internals. */
function bodyParseErrors(err: { type?: string } | undefined, _req: unknown, _res: unknown, next: (e?: unknown) => void) {
  next(err?.type === 'entity.parse.failed' ? new BadRequestException('Malformed JSON body') : err);
}

export interface ServiceAppOptions {
  service: string;
  /** JSON body limit; uploads have their own. */
  bodyLimit?: string;
}

/**
 * Builds a service's Nest app with the shared HTTP conventions (prefix, validation,
 * envelope, errors, metrics) and its bus consumer, without listening: tests drive it
 * through supertest, `startServiceApp` puts it on a port.
 */
export async function createServiceApp(rootModule: DynamicModule, options: ServiceAppOptions): Promise<INestApplication> {
  const app = await NestFactory.create(rootModule, { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  configureServiceApp(app, options);
  serveOpenApi(app, options.service);
  const transport = app.get<BusTransport>(BUS_TRANSPORT);
  const store = app.get<Store>(STORE);
  app.connectMicroservice(
    {
      strategy: new BusServer({
        transport,
        group: options.service,
        consumer: `${options.service}-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
        inbox: store.collection(inboxCollection),
        observe: (event, outcome, lagSeconds) => {
          eventsHandled.inc({ group: options.service, type: event.type, outcome });
          if (outcome === 'handled') eventLag.observe({ group: options.service, type: event.type }, lagSeconds);
        },
      }),
    },
    { inheritAppConfig: true },
  );
  await app.init();
  await app.startAllMicroservices();
  return app;
}

export function configureServiceApp(app: INestApplication, options: ServiceAppOptions): void {
  const logger = app.get<PinoLogger>(SERVICE_LOGGER);
  app.use(
    requestLogging(logger, {
      makeId: true,
      levels: ['debug', 'info', 'error'],
      levelFor: (res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
    }),
  );
  app.use(json({ limit: options.bodyLimit ?? '256kb' }), urlencoded({ limit: '64kb', extended: false }), bodyParseErrors);
  app.setGlobalPrefix(API_PREFIX, { exclude: ['health/live', 'health/ready', 'metrics'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter(logger));
  app.useGlobalInterceptors(new MetricsInterceptor(options.service), new EnvelopeInterceptor());
  const http = app.getHttpAdapter().getInstance() as { disable?: (s: string) => void; set?: (k: string, v: unknown) => void };
  http.disable?.('x-powered-by');
  // Query strings parse flat: `?userId[$ne]=x` stays a plain string key, never an operator object.
  http.set?.('query parser', 'simple');
  // No SHA-1 of every JSON reply: API data changes too often for 304s to pay (media sets its own ETag).
  http.set?.('etag', false);
}

/** Listens on host:port (port 0 picks a free one) and returns the bound URL. */
export async function startServiceApp(app: INestApplication, port: number, host = '127.0.0.1'): Promise<string> {
  // Outlive the gateway's idle keep-alive sockets (it drops them at 30 s): a connection this
  // server closed while the gateway reuses it would surface as a spurious 503.
  const server = app.getHttpServer() as { keepAliveTimeout: number; headersTimeout: number };
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await app.listen(port, host);
  const address = app.getHttpServer().address() as { port: number };
  return `http://${host}:${address.port}`;
}
