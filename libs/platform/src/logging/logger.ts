import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Params } from 'nestjs-pino';
import pino, { Level, Logger } from 'pino';

const REDACT = ['req.headers.authorization', 'req.headers.cookie'];

/** One JSON logger per service (or the gateway), credentials redacted. */
export function createLogger(service: string, level: string): Logger {
  return pino({ level, base: { service }, redact: REDACT });
}

/**
 * Nest's logger over the service's pino logger. No per-request middleware and so no
 * AsyncLocalStorage: request lines come from `requestLogging`, and the exception filter
 * names the request id itself.
 */
export function loggerParams(logger: Logger): Params {
  return { pinoHttp: { logger }, forRoutes: [] };
}

export interface RequestLoggingOptions {
  /** The level of a finished request's line (pino-http's `customLogLevel`). */
  levelFor(res: ServerResponse, err?: Error): Level;
  /** The levels `levelFor` can answer: none of them enabled means nothing to watch. */
  levels: readonly Level[];
  /** What the line shows of the request (after `req.id` is set). */
  describeRequest?(req: IncomingMessage & { id: string }): object;
  /** When the request comes without an `x-request-id`: a new one, also sent back. */
  makeId?: boolean;
}

type LoggedRequest = IncomingMessage & { id?: string };

const describeBriefly = (req: IncomingMessage & { id: string }) => ({ id: req.id, method: req.method, url: req.url });

/**
 * Request ids and one line per finished request, at the level `levelFor` gives, in
 * pino-http's shape (`req`, `res`, `responseTime`, "request completed" / "request errored").
 * Unlike pino-http it builds nothing per request: no child logger, no serializer run, and no
 * listener at all when the configured level drops every line a request could produce.
 */
export function requestLogging(logger: Logger, options: RequestLoggingOptions) {
  const watch = options.levels.some((level) => logger.isLevelEnabled(level));
  const describe = options.describeRequest ?? describeBriefly;
  return (req: LoggedRequest, res: ServerResponse, next: () => void): void => {
    let id = req.headers['x-request-id'] as string | undefined;
    if (options.makeId) {
      id ??= randomUUID();
      res.setHeader('x-request-id', id);
    }
    if (id) req.id = id;
    if (watch) {
      const started = Date.now();
      res.once('close', () => {
        const failed = (res as ServerResponse & { err?: Error }).err;
        const level = options.levelFor(res, failed);
        if (!logger.isLevelEnabled(level)) return;
        const responseTime = Date.now() - started;
        const line = { req: describe(req as IncomingMessage & { id: string }), res: { statusCode: res.statusCode }, responseTime };
        if (failed || res.statusCode >= 500) {
          logger[level]({ ...line, err: failed ?? new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
        } else {
          logger[level](line, 'request completed');
        }
      });
    }
    next();
  };
}
