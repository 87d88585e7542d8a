import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import cors from 'cors';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { randomUUID } from 'node:crypto';
import { AccessTokenVerifier, createLogger, httpDuration, loadConfig, requestLogging } from '@app/platform';
import { createBodyLimit } from './access/body-limit';
import { createJsonDepthCheck } from './access/json-depth';
import { SessionCutoffs } from './access/session-cutoffs';
import { createTokenCheck, GatewayRequest, sessionEndGate } from './access/token-check';
import { GatewayConfig } from './config/gateway.config';
import { createDocsRouter } from './docs/openapi-docs';
import { GatewayModule } from './gateway.module';
import { createMemberExport } from './export/member-export';
import { sendEnvelopeError } from './proxy/envelope-reply';
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

function requestId(req: Request, res: Response, next: NextFunction): void {
  const id = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
  req.headers['x-request-id'] = id;
  res.setHeader('x-request-id', id);
  next();
}

function recordDuration(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const route = req.originalUrl.startsWith('/api/') ? (ownerOf(req.originalUrl, req.method) ?? 'unknown') : 'web';
    httpDuration.observe(
      { service: 'gateway', method: req.method, route, status: String(res.statusCode) },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
  });
  next();
}

/**
 * The only public entry (ARCHITECTURE §1): security headers, CORS, request ids, body
 * limits, token check, rate limits, then /api/* forwarded by prefix, socket.io, and the SPA.
 */
export async function createGatewayApp(config: GatewayConfig, urls: ServiceUrls): Promise<INestApplication> {
  const app = await NestFactory.create(GatewayModule.forRoot(config, urls), {
    bodyParser: false,
    logger: config.LOG_LEVEL === 'silent' ? false : ['error', 'warn'],
  });
  const http = app.getHttpAdapter().getInstance() as { disable(s: string): void; set(k: string, v: unknown): void };
  http.disable('x-powered-by');
  http.set('trust proxy', 'loopback');

  app.use(requestId);
  app.use(
    requestLogging(createLogger('gateway', config.LOG_LEVEL), {
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
    }),
  );
  app.use(recordDuration);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'", 'ws:', 'wss:'],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(cors({ origin: config.APP_ORIGIN ?? false, credentials: true }));
  app.use('/api', createBodyLimit(config.BODY_LIMIT_BYTES, config.UPLOAD_LIMIT_BYTES));
  const sessions = app.get(SessionCutoffs);
  app.use('/api', createTokenCheck(new AccessTokenVerifier(config.JWT_SECRET), sessions));
  app.use('/api', createRateLimits(rateLimitSettings(config), app.get(RateLimitStore).redis));
  app.use('/api', createJsonDepthCheck(config.BODY_LIMIT_BYTES));
  app.use(createDocsRouter(urls));
  app.use(createMemberExport(urls, config.UPSTREAM_TIMEOUT_MS));
  const forwarder = app.get(ServiceForwarder);
  app.use((req: GatewayRequest, res: Response, next: NextFunction) => {
    const service = forwarder.serviceFor(req.url, req.method);
    if (service === undefined) return next();
    forwarder.forward(req, res, service, sessionEndGate(req, sessions));
  });
  app.use('/api', (_req: Request, res: Response) => sendEnvelopeError(res, 404, 'Not found'));
  for (const handler of createSpaHandlers(config.WEB_DIR)) app.use(handler);
  app.useWebSocketAdapter(await createSocketAdapter(app));
  return app;
}
