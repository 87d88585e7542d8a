import type { OnApplicationShutdown } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { Dispatcher, Pool } from 'undici';
import { compressReply } from '../compression/reply-compression';
import { sendEnvelopeError } from './envelope-reply';
import { noneMatchHits, weakEtag } from './etag';
import { ownerOf, ServiceName } from './routes';

export type ServiceUrls = Partial<Record<ServiceName, string>>;

/** Headers about one connection, never passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Errors that mean nothing is listening there (any more): the service is down. */
const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'UND_ERR_SOCKET']);

/** The upstream time-out: no connection, no headers or no body bytes within UPSTREAM_TIMEOUT_MS. */
const TIMED_OUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

class ClientGone extends Error {
  constructor() {
    super('the client closed the connection');
  }
}

/** Header names listed in a Connection header: hop-by-hop as well. */
function connectionTokens(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return String(value)
    .toLowerCase()
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** http-proxy's `xfwd`: appends to X-Forwarded-For/-Port/-Proto, keeps an X-Forwarded-Host already there. */
function addForwardedHeaders(out: Record<string, string | string[]>, req: IncomingMessage): void {
  const encrypted = Boolean((req.socket as TLSSocket).encrypted);
  const port = req.headers.host?.match(/:(\d+)/)?.[1] ?? (encrypted ? '443' : '80');
  const values = { for: req.socket.remoteAddress ?? '', port, proto: encrypted ? 'https' : 'http' };
  for (const name of ['for', 'port', 'proto'] as const) {
    const key = `x-forwarded-${name}`;
    const before = req.headers[key];
    out[key] = before ? `${String(before)},${values[name]}` : values[name];
  }
  out['x-forwarded-host'] = (req.headers['x-forwarded-host'] as string | undefined) || req.headers.host || '';
}

/** Headers meant for the far end: less the hop-by-hop ones and those the Connection header lists. */
function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const listed = connectionTokens(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name) && !listed.includes(name)) out[name] = value;
  }
  return out;
}

/** The client's end-to-end headers, less `expect` (answered here already), plus the forwarding headers. */
function upstreamHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const out = endToEnd(req.headers);
  delete out.expect;
  addForwardedHeaders(out, req);
  return out;
}

/** http-proxy's path handling: repeated slashes in the path collapse, the query is kept as sent. */
function upstreamPath(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!path.includes('//')) return url;
  return path.replace(/\/+/g, '/') + (q < 0 ? '' : url.slice(q));
}

/** Runs once the service's status is known and before the client sees any of the reply. */
export type ReplyGate = (status: number) => Promise<void>;

/** A reply held back while its gate runs. */
interface Held {
  chunks: Buffer[];
  ended: boolean;
}

/** Revalidation of one reply (etag.ts): whose page it is and the client's If-None-Match. */
export interface Conditional {
  viewer: string;
  ifNoneMatch?: string;
  /** The client's Accept-Encoding: the tagged reply is compressed by it (compression/reply-compression.ts). */
  acceptEncoding?: string | string[];
}

/** A 200 reply read whole to tag it before it is sent. */
interface Tagged {
  statusMessage?: string;
  headers: Record<string, string | string[]>;
  chunks: Buffer[];
}

/** Vary with Authorization added: the reply differs per member. */
function varyOnAuthorization(vary: string | string[] | undefined): string {
  const listed = vary === undefined ? [] : String(vary).split(',').map((v) => v.trim()).filter(Boolean);
  return listed.some((v) => v.toLowerCase() === 'authorization' || v === '*') ? listed.join(', ') : [...listed, 'Authorization'].join(', ');
}

/** Streams one service reply into the client's response; maps failures to envelopes. */
class ForwardHandler implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private clientGone = false;
  /** The reply ended or failed: nothing left to abort. */
  private settled = false;
  private held?: Held;
  private tagged?: Tagged;

  constructor(
    private readonly res: ServerResponse,
    private readonly service: ServiceName,
    private readonly gate?: ReplyGate,
    private readonly conditional?: Conditional,
  ) {
    res.once('close', () => {
      if (res.writableFinished) return;
      this.clientGone = true;
      if (!this.settled) this.controller?.abort(new ClientGone());
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.clientGone) controller.abort(new ClientGone());
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    // 1xx (an early hint): the client is answered by the final reply only.
    if (statusCode < 200 || this.clientGone) return;
    const passed = endToEnd(headers);
    if (this.conditional && statusCode === 200 && !this.gate) {
      this.tagged = { statusMessage, headers: passed, chunks: [] };
      return;
    }
    const start = () => (statusMessage ? this.res.writeHead(statusCode, statusMessage, passed) : this.res.writeHead(statusCode, passed));
    if (!this.gate) return void start();
    const held: Held = { chunks: [], ended: false };
    this.held = held;
    controller.pause();
    void this.gate(statusCode)
      .catch(() => undefined)
      .then(() => {
        // A failure or a gone client since: nothing of this reply is sent.
        if (this.held !== held || this.clientGone) return;
        this.held = undefined;
        start();
        for (const chunk of held.chunks) this.res.write(chunk);
        if (held.ended) this.res.end();
        else controller.resume();
      });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.clientGone) return;
    if (this.held) return void this.held.chunks.push(chunk);
    if (this.tagged) return void this.tagged.chunks.push(chunk);
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.settled = true;
    if (this.held) this.held.ended = true;
    else if (this.clientGone) return;
    else if (this.tagged && this.conditional) this.sendTagged(this.tagged, this.conditional);
    else this.res.end();
  }

  /** The reply with its ETag, or 304 without a body when the client holds that tag already. */
  private sendTagged({ statusMessage, headers, chunks }: Tagged, { viewer, ifNoneMatch, acceptEncoding }: Conditional): void {
    const body = Buffer.concat(chunks);
    const etag = weakEtag(viewer, body);
    const out: Record<string, string | string[]> = { ...headers, etag, vary: varyOnAuthorization(headers.vary), 'cache-control': headers['cache-control'] ?? 'private, no-cache' };
    if (noneMatchHits(ifNoneMatch, etag)) {
      delete out['content-length'];
      delete out['content-type'];
      this.res.writeHead(304, out);
      this.res.end();
      return;
    }
    out['content-length'] = String(body.length);
    const sent = compressReply(acceptEncoding, body, out);
    if (statusMessage) this.res.writeHead(200, statusMessage, out);
    else this.res.writeHead(200, out);
    this.res.end(sent);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.settled = true;
    this.held = undefined;
    this.tagged = undefined;
    if (this.clientGone || err instanceof ClientGone) return;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (TIMED_OUT.has(code)) {
      sendEnvelopeError(this.res, 504, `The ${this.service} service did not answer in time`);
    } else {
      sendEnvelopeError(this.res, UNAVAILABLE.has(code) ? 503 : 502, `The ${this.service} service is unavailable`);
    }
  }
}

/**
 * Forwards /api/* to the owning service: one undici pool per service with kept-alive
 * connections, the request body streamed to the service and the reply streamed back.
 * A service that is down answers 503, one slower than the time-out 504, both as envelopes.
 * A client that goes away aborts its upstream request. A service restarted on the same
 * port is found again: a pool opens new connections as its old ones close.
 */
export class ServiceForwarder implements OnApplicationShutdown {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(urls: ServiceUrls, timeoutMs: number) {
    for (const [service, url] of Object.entries(urls) as [ServiceName, string | undefined][]) {
      if (!url) continue;
      this.pools.set(
        service,
        new Pool(url, {
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

  /** The service that would take this path, when it has a URL. */
  serviceFor(url: string, method?: string): ServiceName | undefined {
    const service = ownerOf(url, method);
    return service !== undefined && this.pools.has(service) ? service : undefined;
  }

  /**
   * Sends the request to `service` (from serviceFor) and its reply to `res`, after `gate` when
   * given; with `conditional`, a 200 reply is tagged and may be answered 304.
   */
  forward(req: IncomingMessage & { bufferedBody?: Buffer }, res: ServerResponse, service: ServiceName, gate?: ReplyGate, conditional?: Conditional): void {
    const pool = this.pools.get(service) as Pool;
    // A JSON body already read by the depth check goes on as its bytes.
    if (req.bufferedBody) return this.dispatch(pool, req, res, { service, body: req.bufferedBody, gate, conditional });
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
    let body: PassThrough | null = null;
    if (hasBody) {
      // Through a PassThrough rather than `req` itself: undici destroys a body it stops reading
      // (a service answering before it read the upload), and destroying `req` would drop the
      // client's connection before it gets that answer. The unread rest is drained instead.
      body = new PassThrough();
      req.pipe(body);
      res.once('finish', () => {
        if (req.complete) return;
        req.unpipe(body as PassThrough);
        req.resume();
      });
    }
    this.dispatch(pool, req, res, { service, body, gate, conditional });
  }

  private dispatch(
    pool: Pool,
    req: IncomingMessage,
    res: ServerResponse,
    { service, body, gate, conditional }: { service: ServiceName; body: PassThrough | Buffer | null; gate?: ReplyGate; conditional?: Conditional },
  ): void {
    pool.dispatch(
      {
        path: upstreamPath(req.url ?? '/'),
        method: req.method as Dispatcher.HttpMethod,
        headers: upstreamHeaders(req),
        body,
      },
      new ForwardHandler(res, service, gate, conditional),
    );
  }

  /** With the app: in-flight requests are aborted, kept-alive connections closed. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.destroy().catch(() => undefined)));
    this.pools.clear();
  }
}
