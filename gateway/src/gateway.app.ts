import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import cors from 'cors';
import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AccessTokenVerifier, createLogger, httpDuration, lazySchemaCompilers, loadConfig, requestLogging } from '@app/platform';
import { createBodyLimit } from './access/body-limit';
import { contentTypeCheck } from './access/content-type';
import { createJsonDepthCheck } from './access/json-depth';
import { noStoreByDefault } from './access/no-store';
import { SessionCutoffs } from './access/session-cutoffs';
import { clientAddress, TrustedProxies } from './access/client-address';
import { createTokenCheck, GatewayRequest, sessionEndGate } from './access/token-check';
import { GatewayConfig, siteOrigin } from './config/gateway.config';
import { createDocsHandler } from './docs/openapi-docs';
import { GatewayModule } from './gateway.module';
import { createMemberExport } from './export/member-export';
import { StartupGate } from './access/starting';
import { answerClientError } from './http/client-error';
import { runSteps, Step, underApi } from './http/pipeline';
import { securityHeaders } from './http/security-headers';
import { createOneSearch } from './search/one-search';
import { sendEnvelopeError } from './proxy/envelope-reply';
import { isConditionalRoute } from './proxy/etag';
import { routePath } from './proxy/route-path';
import { ownerOf, SERVICE_NAMES, ServiceName } from './proxy/routes';
import type { ServiceLink } from './link/service-link';
import { ServiceForwarder, ServiceUrls } from './proxy/service-proxy';
import { RateLimitStore } from './rate-limit/rate-limit-store';
import { createRateLimits, rateLimitSettings } from './rate-limit/rate-limits';
import { createSocketAdapter } from './realtime';
import { createSpaHandlers } from './web/spa';
import { createLinkCardPages } from './link-cards/link-card-pages';
import { robotsTxt } from './link-cards/robots';

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
    const route = url.startsWith('/api/') ? (ownerOf(url, req.method) ?? 'unknown') : 'web';
    httpDuration.observe(
      { service: 'gateway', method: req.method ?? 'GET', route, status: String(res.statusCode) },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
  });
  next();
};

/** The gateway's own Nest routes (health): the only requests Fastify's router answers. */
const NEST_ROUTES = ['/health'];

function isNestRoute(url: string): boolean {
  const path = routePath(url);
  return NEST_ROUTES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** A step that failed: a 500 envelope, or the connection dropped when the reply had begun. */
function fail(res: ServerResponse): void {
  if (!res.headersSent) sendEnvelopeError(res, 500, 'Internal server error');
  else res.destroy();
}

/** Express's answer for a path nobody serves (a POST to a page, say). */
function notFound(req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ message: `Cannot ${req.method} ${(req.url ?? '/').split('?', 1)[0]}`, error: 'Not Found', statusCode: 404 });
  res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Front = (req: IncomingMessage, res: ServerResponse, toFastify: Handler) => void;

/**
 * Fastify behind the gateway's own steps: the server runs them on Node's request and response
 * first (before any routing or body reading, bodies are streamed to the services), and only
 * what they pass on, the gateway's /health, reaches Fastify and Nest's routes.
 * Node's server defaults (keep-alive 5 s, request time-out 300 s) as under Express.
 */
function gatewayAdapter(front: () => Front | undefined): FastifyAdapter {
  return new FastifyAdapter({
    skipMiddie: true,
    return503OnClosing: false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    schemaController: lazySchemaCompilers,
    clientErrorHandler: answerClientError,
    serverFactory: (toFastify: Handler) => createServer((req, res) => (front() ?? toFastify)(req, res, toFastify)),
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
 * On Fastify (gatewayAdapter): the steps work on Node's request and response in front of it,
 * so a proxied request costs no Fastify routing, request or reply objects. `link` reaches the
 * services (the embedded stack's in-process link); without it, HTTP to `urls`. `gate`, while
 * closed, answers everything but /health/live 503 "starting" (the embedded stack's demo seed).
 */
export async function createGatewayApp(config: GatewayConfig, urls: ServiceUrls, link?: ServiceLink, gate?: StartupGate): Promise<INestApplication> {
  // Set once the app is built; no request arrives before (nothing listens yet).
  const front: { steps?: Front } = {};
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config, urls, link), gatewayAdapter(() => front.steps), {
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
  const sessions = app.get(SessionCutoffs);
  const forwarder = app.get(ServiceForwarder);
  const forward: Step<GatewayRequest> = (req, res, next) => {
    const service = forwarder.serviceFor(req.url ?? '/', req.method);
    if (service === undefined) return next();
    const conditional = isConditionalRoute(req) ? { viewer: req.userId ?? '', ifNoneMatch: req.headers['if-none-match'], acceptEncoding: req.headers['accept-encoding'] } : undefined;
    forwarder.forward(req, res, service, sessionEndGate(req, sessions), conditional);
  };
  const common: Step<GatewayRequest>[] = [
    requestId,
    logging as Step,
    recordDuration,
    securityHeaders({ contentSecurityPolicy: { directives: CSP_DIRECTIVES }, crossOriginEmbedderPolicy: false }),
    cors({ origin: config.APP_ORIGIN ?? false, credentials: true }),
  ];
  const steps: Step<GatewayRequest>[] = [
    ...common,
    underApi(noStoreByDefault),
    underApi(createBodyLimit(config.BODY_LIMIT_BYTES, config.UPLOAD_LIMIT_BYTES)),
    underApi(createTokenCheck(new AccessTokenVerifier(config.JWT_SECRET), sessions)),
    underApi(contentTypeCheck),
    underApi(createRateLimits(rateLimitSettings(config), app.get(RateLimitStore).redis)),
    underApi(createJsonDepthCheck(config.BODY_LIMIT_BYTES)),
    createDocsHandler(urls),
    createMemberExport(urls, config.UPSTREAM_TIMEOUT_MS),
    createOneSearch(urls, config.UPSTREAM_TIMEOUT_MS),
    forward,
    underApi((_req, res) => sendEnvelopeError(res, 404, 'Not found')),
    robotsTxt,
    createLinkCardPages({ urls, webDir: config.WEB_DIR, appOrigin: siteOrigin(config) }),
    ...createSpaHandlers(config.WEB_DIR),
  ];
  const trustedProxies = new TrustedProxies(config.TRUST_PROXY);
  front.steps = (raw, res, toFastify) => {
    if (gate?.refuse(raw, res)) return;
    const req: GatewayRequest = raw;
    req.ip = clientAddress(req, trustedProxies);
    // Nest answers its routes once the common steps passed (a CORS preflight is answered by them).
    if (isNestRoute(req.url ?? '/')) return runSteps(common, req, res, (err) => (err === undefined ? toFastify(req, res) : fail(res)));
    runSteps(steps, req, res, (err) => (err === undefined ? notFound(req, res) : fail(res)));
  };
  app.useWebSocketAdapter(await createSocketAdapter(app));
  await app.init();
  // Fastify serves once ready: tests drive `app.getHttpServer()` without listen().
  await fastify.ready();
  return app;
}
