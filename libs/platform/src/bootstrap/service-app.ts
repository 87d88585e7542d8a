import { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { parse as parseQueryString } from 'node:querystring';
import type { Logger as PinoLogger } from 'pino';
import { BUS_TRANSPORT, BusServer, BusTransport, EventBus, inboxCollection } from '@app/bus';
import { STORE, Store } from '@app/store';
import { byteLimit, jsonBodyReader, registerBodyParsers } from '../http/body-parsers';
import { AllExceptionsFilter } from '../http/exception.filter';
import { EnvelopingFastifyAdapter } from '../http/envelope';
import { createValidationPipe } from '../http/validation';
import { DirectRoutes, type RouteMatching } from '../link/direct-routes';
import { LinkedRequest, LinkedResponse, observedUpstream, type ServiceRouter } from '../link/linked-exchange';
import { requestLogging } from '../logging/logger';
import { eventLag, eventsHandled } from '../metrics/metrics';
import { observeDirectRequest, observeRequests } from '../metrics/request-metrics';
import { MemberStanding } from '../read-models/member-standing.service';
import { SERVICE_LOGGER } from '../platform.tokens';
import { serveOpenApi } from './openapi';
import { lazySchemaCompilers } from './schema-compilers';

export const API_PREFIX = 'api';

const DEFAULT_BODY_LIMIT = '256kb';
const FORM_BODY_LIMIT = '64kb';

type RequestHook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/** Each app's request hook (ids, request lines), for the replies Fastify makes before routing. */
const requestHooks = new WeakMap<FastifyInstance, RequestHook>();

/**
 * A path Fastify's router cannot decode (`/api/x/%E0%A4%A`) never reaches a route, so
 * Nest's filters do not see it: answered here with the envelope and Express's wording.
 */
function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const reply400 = () => {
    const undecodable = error.code === 'FST_ERR_BAD_URL' ? undecodableSegment(request.url) : undefined;
    const message = undecodable === undefined ? 'Bad request' : `Failed to decode param '${undecodable}'`;
    void reply.code(400).send({ success: false, message, code: 'BAD_REQUEST' });
  };
  const hook = requestHooks.get(request.server);
  if (hook) hook(request, reply, reply400);
  else reply400();
}

function undecodableSegment(url: string): string | undefined {
  const path = url.split('?', 1)[0];
  return path.split('/').find((segment) => {
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });
}

/** Routing as Express did here, for Fastify's router and the in-process link's direct lane alike. */
const ROUTER_OPTIONS: RouteMatching = {
  caseSensitive: false,
  ignoreTrailingSlash: true,
  maxParamLength: 65_536,
  querystringParser: (query: string) => parseQueryString(query),
};

/** Each app's direct lane for the in-process link (link/direct-routes.ts). */
const directLanes = new WeakMap<FastifyInstance, DirectRoutes>();

/**
 * Fastify set up to route as Express did here: case-insensitive, a trailing slash ignored,
 * no limit on a path parameter's length, query strings parsed flat (`?userId[$ne]=x` stays
 * a plain string key, never an operator object), Node's request timeout, and requests still
 * routed while closing. No middie: services use no Express-style middleware (`app.use`).
 */
function serviceAdapter(bodyLimit: number): EnvelopingFastifyAdapter {
  return new EnvelopingFastifyAdapter({
    skipMiddie: true,
    bodyLimit,
    // Outlive the gateway's idle keep-alive sockets (it drops them at 30 s): a connection this
    // server closed while the gateway reuses it would surface as a spurious 503.
    keepAliveTimeout: 65_000,
    requestTimeout: 300_000,
    return503OnClosing: false,
    routerOptions: ROUTER_OPTIONS,
    frameworkErrors: onFrameworkError,
    schemaController: lazySchemaCompilers,
  });
}

export interface ServiceAppOptions {
  service: string;
  /** JSON body limit; uploads have their own. */
  bodyLimit?: string;
  /** Registers the service's own Fastify plugins (multipart uploads), before the app starts. */
  configureHttp?(app: NestFastifyApplication): Promise<void> | void;
}

/**
 * Builds a service's Nest app with the shared HTTP conventions (prefix, validation,
 * envelope, errors, metrics) and its bus consumer, without listening: tests drive it
 * through supertest, `startServiceApp` puts it on a port.
 */
export async function createServiceApp(rootModule: DynamicModule, options: ServiceAppOptions): Promise<INestApplication> {
  const adapter = serviceAdapter(byteLimit(options.bodyLimit ?? DEFAULT_BODY_LIMIT));
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  configureServiceApp(app, options);
  await options.configureHttp?.(app);
  serveOpenApi(app, options.service);
  const transport = app.get<BusTransport>(BUS_TRANSPORT);
  const store = app.get<Store>(STORE);
  const events = app.get(EventBus);
  const standing = app.get(MemberStanding);
  app.connectMicroservice(
    {
      strategy: new BusServer({
        transport,
        group: options.service,
        consumer: `${options.service}-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
        inbox: store.collection(inboxCollection),
        atomically: (work) => events.atomically(work),
        transactional: events.transactional,
        // A late event from a member who deleted their account would undo their erasure here.
        ignore: (event) => standing.isLateFromDeleted(event),
        observe: (event, outcome, lagSeconds) => {
          eventsHandled.inc({ group: options.service, type: event.type, outcome });
          if (outcome === 'handled') eventLag.observe({ group: options.service, type: event.type }, lagSeconds);
        },
      }),
    },
    { inheritAppConfig: true },
  );
  await app.init();
  // Fastify serves requests once ready: supertest drives `app.getHttpServer()` without listen().
  await app.getHttpAdapter().getInstance().ready();
  await app.startAllMicroservices();
  return app;
}

export function configureServiceApp(app: NestFastifyApplication, options: ServiceAppOptions): void {
  const logger = app.get<PinoLogger>(SERVICE_LOGGER);
  const fastify = app.getHttpAdapter().getInstance();
  const logRequest = requestLogging(logger, {
    makeId: true,
    levels: ['debug', 'info', 'error'],
    levelFor: (res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
  });
  // A hook rather than middie: the same Express-style function on the raw request and
  // response, and the id it settles becomes the request's id (the exception filter names it).
  const requestHook: RequestHook = (request, reply, done) => {
    const raw = request.raw as IncomingMessage & { id?: string };
    // Through the in-process link the gateway's own line stands for the request (one per request).
    if (observedUpstream(raw)) {
      request.id = (raw.headers['x-request-id'] as string | undefined) ?? request.id;
      return done();
    }
    logRequest(raw, reply.raw, () => {
      if (raw.id !== undefined) request.id = raw.id;
      done();
    });
  };
  fastify.addHook('onRequest', requestHook);
  requestHooks.set(fastify, requestHook);
  const jsonLimit = byteLimit(options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  const direct = new DirectRoutes(ROUTER_OPTIONS, jsonBodyReader(jsonLimit), (req, res, route) => {
    logRequest(req as unknown as Parameters<typeof logRequest>[0], res as unknown as ServerResponse, () => undefined);
    observeDirectRequest(options.service, req.method, route, res);
  });
  direct.learnFrom(fastify);
  directLanes.set(fastify, direct);
  registerBodyParsers(fastify, { jsonLimit, formLimit: byteLimit(FORM_BODY_LIMIT) });
  app.setGlobalPrefix(API_PREFIX, { exclude: ['health/live', 'health/ready'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter(logger));
  // No global interceptors: the envelope is applied by the adapter and metrics by a hook, so a
  // request runs no rxjs chain.
  observeRequests(fastify, options.service);
  // Fastify sends no x-powered-by and computes no ETag: API data changes too often for 304s
  // to pay (media sets its own ETag).
}

/**
 * The service's router on Node's request and response, for the in-process link (no listener
 * needed): the direct lane for what it takes, Fastify for the rest.
 */
export function serviceRouter(app: INestApplication): ServiceRouter {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const direct = directLanes.get(fastify);
  return (req, res) => {
    if (direct && req instanceof LinkedRequest && direct.handle(req, res as unknown as LinkedResponse)) return;
    fastify.routing(req, res);
  };
}

/** Listens on host:port (port 0 picks a free one) and returns the bound URL. */
export async function startServiceApp(app: INestApplication, port: number, host = '127.0.0.1'): Promise<string> {
  // Keep-alive is 65 s (see serviceAdapter); headers may take a little longer than that.
  const server = app.getHttpServer() as { headersTimeout: number };
  server.headersTimeout = 66_000;
  await app.listen(port, host);
  const address = app.getHttpServer().address() as { port: number };
  return `http://${host}:${address.port}`;
}
