import type { OnApplicationShutdown } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { LinkFailure, LinkFlow, ReplyTarget } from '@app/platform';
import type { ServiceLink } from '../link/service-link';
import { compressReply, isCompressibleReply } from '../compression/reply-compression';
import { sendEnvelopeError } from './envelope-reply';
import { noneMatchHits, weakEtag } from './etag';
import { ownerOf, ServiceName } from './routes';

export type { ServiceUrls } from '../link/http-link';

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

const joined = (chunks: Buffer[]): Buffer => (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));

/** A reply read whole to compress it (compression/reply-compression.ts). */
interface Whole {
  statusCode: number;
  statusMessage?: string;
  headers: Record<string, string | string[]>;
  chunks: Buffer[];
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

/**
 * Passes one service reply, as either link reports it, into the client's response: streamed,
 * held back while its gate runs, or read whole to be tagged (ETag, 304); a failure becomes an
 * envelope (504 too slow, 503 down, 502 not HTTP). A client that goes away abandons the request.
 */
class ReplyRelay implements ReplyTarget {
  private flow?: LinkFlow;
  private clientGone = false;
  /** The reply ended or failed: nothing left to abandon. */
  private settled = false;
  private held?: Held;
  private tagged?: Tagged;
  private whole?: Whole;

  constructor(
    private readonly res: ServerResponse,
    private readonly service: ServiceName,
    private readonly gate?: ReplyGate,
    private readonly conditional?: Conditional,
    /** The client's Accept-Encoding, for a request whose reply has a body (not HEAD). */
    private readonly acceptEncoding?: string | string[],
  ) {
    res.once('close', () => {
      if (res.writableFinished) return;
      this.clientGone = true;
      if (!this.settled) this.flow?.abort();
    });
  }

  attach(flow: LinkFlow): void {
    this.flow = flow;
    if (this.clientGone) flow.abort();
  }

  start(statusCode: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    if (this.clientGone) return;
    const passed = endToEnd(headers);
    if (this.conditional && statusCode === 200 && !this.gate) {
      this.tagged = { statusMessage, headers: passed, chunks: [] };
      return;
    }
    if (!this.gate && isCompressibleReply(this.acceptEncoding, statusCode, passed)) {
      this.whole = { statusCode, statusMessage, headers: passed, chunks: [] };
      return;
    }
    const start = () => (statusMessage ? this.res.writeHead(statusCode, statusMessage, passed) : this.res.writeHead(statusCode, passed));
    if (!this.gate) return void start();
    const held: Held = { chunks: [], ended: false };
    this.held = held;
    this.flow?.pause();
    void this.gate(statusCode)
      .catch(() => undefined)
      .then(() => {
        // A failure or a gone client since: nothing of this reply is sent.
        if (this.held !== held || this.clientGone) return;
        this.held = undefined;
        start();
        for (const chunk of held.chunks) this.res.write(chunk);
        if (held.ended) this.res.end();
        else this.flow?.resume();
      });
  }

  data(chunk: Buffer): void {
    if (this.clientGone) return;
    if (this.held) return void this.held.chunks.push(chunk);
    if (this.tagged) return void this.tagged.chunks.push(chunk);
    if (this.whole) return void this.whole.chunks.push(chunk);
    if (!this.res.write(chunk)) {
      this.flow?.pause();
      this.res.once('drain', () => this.flow?.resume());
    }
  }

  end(): void {
    this.settled = true;
    if (this.held) this.held.ended = true;
    else if (this.clientGone) return;
    else if (this.tagged && this.conditional) this.sendTagged(this.tagged, this.conditional);
    else if (this.whole) this.sendWhole(this.whole);
    else this.res.end();
  }

  /** The reply compressed by the client's Accept-Encoding, when it is large enough to pay. */
  private sendWhole({ statusCode, statusMessage, headers, chunks }: Whole): void {
    const out: Record<string, string | string[]> = { ...headers };
    delete out['transfer-encoding'];
    this.sendBody(statusCode, statusMessage, out, joined(chunks), this.acceptEncoding);
  }

  /** A body read whole: its length, compressed by `acceptEncoding` when that pays, then sent. */
  private sendBody(statusCode: number, statusMessage: string | undefined, out: Record<string, string | string[]>, body: Buffer, acceptEncoding: string | string[] | undefined): void {
    out['content-length'] = String(body.length);
    const sent = compressReply(acceptEncoding, body, out);
    if (statusMessage) this.res.writeHead(statusCode, statusMessage, out);
    else this.res.writeHead(statusCode, out);
    this.res.end(sent);
  }

  /** The reply with its ETag, or 304 without a body when the client holds that tag already. */
  private sendTagged({ statusMessage, headers, chunks }: Tagged, { viewer, ifNoneMatch, acceptEncoding }: Conditional): void {
    const body = joined(chunks);
    const etag = weakEtag(viewer, body);
    const out: Record<string, string | string[]> = { ...headers, etag, vary: varyOnAuthorization(headers.vary), 'cache-control': headers['cache-control'] ?? 'private, no-cache' };
    if (noneMatchHits(ifNoneMatch, etag)) {
      delete out['content-length'];
      delete out['content-type'];
      this.res.writeHead(304, out);
      this.res.end();
      return;
    }
    this.sendBody(200, statusMessage, out, body, acceptEncoding);
  }

  fail(failure: LinkFailure): void {
    this.settled = true;
    this.held = undefined;
    this.tagged = undefined;
    this.whole = undefined;
    if (this.clientGone) return;
    if (failure === 'timeout') sendEnvelopeError(this.res, 504, `The ${this.service} service did not answer in time`);
    else sendEnvelopeError(this.res, failure === 'unavailable' ? 503 : 502, `The ${this.service} service is unavailable`);
  }
}

/**
 * Forwards /api/* to the owning service over the link (in-process or HTTP, service-link.ts):
 * the forwarded headers and path as http-proxy made them, the body as the depth check read it or
 * streamed, the reply through a ReplyRelay. A service that is down answers 503, one slower than
 * the time-out 504, both as envelopes; a client that goes away abandons its request.
 */
export class ServiceForwarder implements OnApplicationShutdown {
  constructor(private readonly link: ServiceLink) {}

  /** The service that would take this path, when the link reaches it. */
  serviceFor(url: string, method?: string): ServiceName | undefined {
    const service = ownerOf(url, method);
    return service !== undefined && this.link.has(service) ? service : undefined;
  }

  /**
   * Sends the request to `service` (from serviceFor) and its reply to `res`, after `gate` when
   * given; with `conditional`, a 200 reply is tagged and may be answered 304.
   */
  forward(req: IncomingMessage & { bufferedBody?: Buffer }, res: ServerResponse, service: ServiceName, gate?: ReplyGate, conditional?: Conditional): void {
    // A JSON body already read by the depth check goes on as its bytes.
    let body: Buffer | PassThrough | null = req.bufferedBody ?? null;
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
    if (!body && hasBody) {
      // Through a PassThrough rather than `req` itself: a link may destroy a body it stops
      // reading (a service answering before it read the upload), and destroying `req` would drop
      // the client's connection before it gets that answer. The unread rest is drained instead.
      const stream = new PassThrough();
      body = stream;
      req.pipe(stream);
      res.once('finish', () => {
        if (req.complete) return;
        req.unpipe(stream);
        req.resume();
      });
    }
    const request = { method: req.method ?? 'GET', path: upstreamPath(req.url ?? '/'), headers: upstreamHeaders(req), body, observed: true };
    const acceptEncoding = request.method === 'HEAD' ? undefined : req.headers['accept-encoding'];
    this.link.send(service, request, new ReplyRelay(res, service, gate, conditional, acceptEncoding));
  }

  /** With the app: in-flight requests end, kept-alive connections close. */
  async onApplicationShutdown(): Promise<void> {
    await this.link.close();
  }
}
