import helmet from '@fastify/helmet';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import cors from 'cors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AccessTokenVerifier, createLogger, httpDuration, loadConfig, requestLogging } from '@app/platform';
import { createBodyLimit } from './access/body-limit';
import { createJsonDepthCheck } from './access/json-depth';
import { SessionCutoffs } from './access/session-cutoffs';
import { createTokenCheck, GatewayRequest, sessionEndGate } from './access/token-check';
import { GatewayConfig } from './config/gateway.config';
import { createDocsHandler } from './docs/openapi-docs';
import { GatewayModule } from './gateway.module';
import { createMemberExport } from './export/member-export';
import { runSteps, Step, underApi } from './http/pipeline';
import { sendEnvelopeError } from './proxy/envelope-reply';
import { routePath } from './proxy/route-path';
import { ownerOf, SERVICE_NAMES, ServiceName } from './proxy/routes';
import { ServiceForwarder, ServiceUrls } from './proxy/service-proxy';
import { RateLimitStore } from './rate-limit/rate-limit-store';
import { createRateLimits, rateLimitSettings } from './rate-limit/rate-limits';
import { createSocketAdapter } from './realtime';
import { createSpaHandlers } from './web/spa';

/** Service URLs from `<NAME>_SERVICE_URL` variables. */
export function serviceUrlsFromConfig(config: GatewayConfig): ServiceUrls {
  const urls: ServiceUrls = {};
  for (const name of SERVICE_NAMES) {
    const url = config[`${name.toUpperCase()}_SERVICE_URL` as keyof GatewayConfig];
    if (typeof url === 'string' && url) urls[name as ServiceName] = url.replace(/\/$/, '');
  }
  return urls;
}

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig(GatewayConfig, 'gateway', env);
}

const requestId: Step = (req, res, next) => {
  const id = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
  req.headers['x-request-id'] = id;
  res.setHeader('x-request-id', id);
  next();
};

const recordDuration: Step = (req, res, next) => {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const url = req.url ?? '/';
    const route = url.startsWith('/api/') ? (ownerOf(url) ?? 'unknown') : 'web';
    httpDuration.observe(
      { service: 'gateway', method: req.method ?? 'GET', route, status: String(res.statusCode) },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
  });
  next();
};

/** The gateway's own Nest routes (health, metrics): the only requests Fastify's router answers. */
const NEST_ROUTES = ['/health', '/metrics'];

function isNestRoute(url: string): boolean {
  const path = routePath(url);
  return NEST_ROUTES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Express's answer for a path nobody serves (a POST to a page, say). */
function notFound(req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ message: `Cannot ${req.method} ${(req.url ?? '/').split('?', 1)[0]}`, error: 'Not Found', statusCode: 404 });
  res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Fastify routed as Express did here (case-insensitive, a trailing slash ignored), Node's
 * keep-alive and request time-outs as before, proxies on loopback trusted for the client
 * address. No middie: the gateway's steps run in one onRequest hook (createGatewayApp).
 */
function gatewayAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    skipMiddie: true,
    trustProxy: 'loopback',
    keepAliveTimeout: 5_000,
    requestTimeout: 300_000,
    return503OnClosing: false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
  });
}

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
};

/**
 * The only public entry (ARCHITECTURE §1): security headers, CORS, request ids, body
 * limits, token check, rate limits, then /api/* forwarded by prefix, socket.io, and the SPA.
 * On Fastify: every step works on Node's request and response in one onRequest hook, before
 * Fastify reads a body (bodies are streamed to the services); a request the steps answer is
 * hijacked from Fastify, only /health and /metrics go on to Nest's routes.
 */
export async function createGatewayApp(config: GatewayConfig, urls: ServiceUrls): Promise<INestApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config, urls), gatewayAdapter(), {
    bodyParser: false,
    logger: config.LOG_LEVEL === 'silent' ? false : ['error', 'warn'],
  });
  const fastify = app.getHttpAdapter().getInstance();
  const logging = requestLogging(createLogger('gateway', config.LOG_LEVEL), {
    levels: ['debug', 'error'],
    levelFor: (res, err) => (err || res.statusCode >= 500 ? 'error' : 'debug'),
    describeRequest: (req) => ({
      id: req.id,
      method: req.method,
      url: req.url,
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress,
      remotePort: req.socket.remotePort,
    }),
  });
  const first: Step[] = [requestId, logging as Step];
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) =>
    runSteps(first, request.raw, reply.raw, (err) => done(err as Error | undefined)),
  );
  await app.register(helmet, { contentSecurityPolicy: { directives: CSP_DIRECTIVES }, crossOriginEmbedderPolicy: false });

  const sessions = app.get(SessionCutoffs);
  const forwarder = app.get(ServiceForwarder);
  const forward: Step<GatewayRequest> = (req, res, next) => {
    const service = forwarder.serviceFor(req.url ?? '/');
    if (service === undefined) return next();
    forwarder.forward(req, res, service, sessionEndGate(req, sessions));
  };
  const common: Step<GatewayRequest>[] = [recordDuration, cors({ origin: config.APP_ORIGIN ?? false, credentials: true })];
  const steps: Step<GatewayRequest>[] = [
    ...common,
    underApi(createBodyLimit(config.BODY_LIMIT_BYTES, config.UPLOAD_LIMIT_BYTES)),
    underApi(createTokenCheck(new AccessTokenVerifier(config.JWT_SECRET), sessions)),
    underApi(createRateLimits(rateLimitSettings(config), app.get(RateLimitStore).redis)),
    underApi(createJsonDepthCheck(config.BODY_LIMIT_BYTES)),
    createDocsHandler(urls),
    createMemberExport(urls, config.UPSTREAM_TIMEOUT_MS),
    forward,
    underApi((_req, res) => sendEnvelopeError(res, 404, 'Not found')),
    ...createSpaHandlers(config.WEB_DIR),
  ];
  const gatewayHook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    const req: GatewayRequest = request.raw;
    req.ip = request.ip;
    if (isNestRoute(request.url)) return runSteps(common, req, reply.raw, (err) => (reply.raw.writableEnded ? undefined : done(err as Error | undefined)));
    reply.hijack();
    runSteps(steps, req, reply.raw, (err) => {
      if (err === undefined) return notFound(req, reply.raw);
      if (!reply.raw.headersSent) sendEnvelopeError(reply.raw, 500, 'Internal server error');
      else reply.raw.destroy();
    });
  };
  fastify.addHook('onRequest', gatewayHook);
  app.useWebSocketAdapter(await createSocketAdapter(app));
  await app.init();
  // Fastify serves once ready: tests drive `app.getHttpServer()` without listen().
  await fastify.ready();
  return app;
}
