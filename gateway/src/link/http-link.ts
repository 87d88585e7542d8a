import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher, Pool } from 'undici';
import type { LinkFailure, ReplyTarget } from '@app/platform';
import type { ServiceName } from '../proxy/routes';
import type { LinkRequest, ServiceLink } from './service-link';
import { undici } from './undici-on-demand';

export type ServiceUrls = Partial<Record<ServiceName, string>>;

/** Errors that mean nothing is listening there (any more): the service is down. */
const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'UND_ERR_SOCKET']);

/** The upstream time-out: no connection, no headers or no body bytes within the time-out. */
const TIMED_OUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The gateway gave up on the request (its client went away). */
class Abandoned extends Error {
  constructor() {
    super('the gateway abandoned the request');
  }
}

function failureOf(err: Error): LinkFailure {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (TIMED_OUT.has(code)) return 'timeout';
  return UNAVAILABLE.has(code) || err instanceof Abandoned ? 'unavailable' : 'bad-reply';
}

/** undici's handler events, told to a ReplyTarget. */
class TargetHandler implements Dispatcher.DispatchHandler {
  constructor(private readonly target: ReplyTarget) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.target.attach({
      pause: () => controller.pause(),
      resume: () => controller.resume(),
      abort: () => controller.abort(new Abandoned()),
    });
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    // 1xx (an early hint): the final reply is what counts.
    if (statusCode < 200) return;
    this.target.start(statusCode, headers, statusMessage);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.target.data(chunk);
  }

  onResponseEnd(): void {
    this.target.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.target.fail(failureOf(err));
  }
}

/**
 * The link across processes (distributed and production profiles): one undici pool per service
 * URL with kept-alive connections, the body streamed to the service and the reply streamed back.
 * A service restarted on the same port is found again: a pool opens new connections as its old
 * ones close. undici checks its time-outs on a 1 s tick.
 */
export class HttpLink implements ServiceLink {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(urls: ServiceUrls, timeoutMs: number) {
    for (const [service, url] of Object.entries(urls) as [ServiceName, string | undefined][]) {
      if (!url) continue;
      this.pools.set(
        service,
        new (undici().Pool)(url, {
          connections: 256,
          // Idle connections close after 30 s, well before the services' 65 s keep-alive time-out
          // (a server's longer Keep-Alive hint is capped to this as well).
          keepAliveTimeout: 30_000,
          keepAliveMaxTimeout: 30_000,
          connect: { timeout: timeoutMs },
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        }),
      );
    }
  }

  has(service: ServiceName): boolean {
    return this.pools.has(service);
  }

  send(service: ServiceName, { method, path, headers, body, timeoutMs }: LinkRequest, target: ReplyTarget): void {
    (this.pools.get(service) as Pool).dispatch(
      {
        path,
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        ...(timeoutMs !== undefined && { headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
      },
      new TargetHandler(target),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.destroy().catch(() => undefined)));
    this.pools.clear();
  }
}
