import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable, Writable } from 'node:stream';

/**
 * The in-process half of the gateway-to-service link (ARCHITECTURE §3 "Link", decision in
 * docs/decisions/gateway.md): the request and response a service's own router is handed in place
 * of Node's, when the gateway runs in the same process. No socket, no HTTP parse, no
 * serialisation: the gateway's parsed request goes in, and what the service writes comes back
 * as events (`ReplyTarget`) the gateway turns into its client's reply.
 */

/** How the gateway steers a reply in flight: its own flow control, and abandoning it. */
export interface LinkFlow {
  pause(): void;
  resume(): void;
  /** Stops the exchange: the service sees its request aborted and its response closed. */
  abort(): void;
}

/** Why a service gave no (complete) reply: too slow (504), not there (503), not HTTP (502). */
export type LinkFailure = 'timeout' | 'unavailable' | 'bad-reply';

/** What a link reports of one reply, in order: attach, start once, data, end; or fail at any point. */
export interface ReplyTarget {
  attach(flow: LinkFlow): void;
  start(status: number, headers: IncomingHttpHeaders, statusMessage?: string): void;
  data(chunk: Buffer): void;
  end(): void;
  fail(failure: LinkFailure): void;
}

/** A service's request handler on Node's request and response (Fastify's `routing`). */
export type ServiceRouter = (req: IncomingMessage, res: ServerResponse) => void;

export interface LinkedRequestInit {
  method: string;
  /** Path and query, as the service routes it. */
  url: string;
  headers: IncomingHttpHeaders;
  /** All of the body already read, the stream of it, or none. */
  body: Buffer | Readable | null;
  /**
   * Whether the caller in this process logs and measures this request itself (the gateway's
   * proxy): then the service writes no second request line and no second observation.
   */
  observed: boolean;
}

/**
 * What a service reads of its socket: the gateway's loopback address, as over HTTP. Requests on
 * the link have no connection of their own (no keep-alive to track, nothing to time out).
 */
const LINK_SOCKET = Object.freeze({
  remoteAddress: '127.0.0.1',
  remoteFamily: 'IPv4',
  remotePort: 0,
  localAddress: '127.0.0.1',
  localPort: 0,
  encrypted: false,
});

/** A request handed to a service in this process: Node's IncomingMessage as far as Fastify and its plugins read one. */
export class LinkedRequest extends Readable {
  readonly method: string;
  url: string;
  readonly headers: IncomingHttpHeaders;
  readonly httpVersion = '1.1';
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly trailers: Record<string, string> = {};
  readonly rawTrailers: string[] = [];
  readonly socket = LINK_SOCKET;
  readonly observed: boolean;
  /** The whole body has arrived (IncomingMessage's meaning). */
  complete = false;
  /** The body when the gateway handed it over whole (null: none), undefined when it streams in. */
  readonly wholeBody: Buffer | null | undefined;
  aborted = false;
  private readonly source?: Readable;

  constructor(init: LinkedRequestInit) {
    super();
    this.method = init.method;
    this.url = init.url;
    this.headers = init.headers;
    this.observed = init.observed;
    const { body } = init;
    if (body === null || Buffer.isBuffer(body)) {
      this.wholeBody = body;
      if (body?.length) this.push(body);
      this.push(null);
      this.complete = true;
      return;
    }
    this.source = body;
    body.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) body.pause();
    });
    body.once('end', () => {
      this.complete = true;
      this.push(null);
    });
    body.once('error', () => this.abort());
  }

  get connection(): typeof LINK_SOCKET {
    return this.socket;
  }

  /** `[name, value, ...]` as Node keeps them (from the parsed headers: the link has no raw bytes). */
  get rawHeaders(): string[] {
    return Object.entries(this.headers).flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v) => [name, v]) : value === undefined ? [] : [name, value]));
  }

  override _read(): void {
    this.source?.resume();
  }

  /**
   * The gateway gave up on the exchange: what a connection reset does to an IncomingMessage. A
   * body still arriving fails with ECONNRESET for whoever listens for errors (a body parser), so
   * the service's request ends instead of waiting for bytes that will not come.
   */
  abort(): void {
    if (this.destroyed) return;
    if (this.complete) return void this.destroy();
    this.aborted = true;
    this.emit('aborted');
    this.destroy(this.listenerCount('error') > 0 ? Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) : undefined);
  }
}

type HeaderValue = number | string | readonly string[];

function headersSentError(): Error {
  return Object.assign(new Error('Cannot write headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' });
}

/** Statuses whose reply has no body: no Content-Length is made up for them. */
const bodiless = (status: number) => status < 200 || status === 204 || status === 304;

/**
 * A response a service writes in this process: Node's ServerResponse as far as Fastify and Nest
 * use one (status, headers, writeHead, write, end, drain, finish, close). Nothing is serialised:
 * the head is reported once to the target, each chunk as written, then the end. The target's
 * flow control holds the service's writes back as a socket's would.
 */
export class LinkedResponse extends Writable {
  statusCode = 200;
  statusMessage = '';
  readonly sendDate = true;
  /** No socket: the link has none (Fastify and Nest read the request's). */
  readonly socket = null;
  private readonly outHeaders = new Map<string, [string, HeaderValue]>();
  private started = false;
  private ended = false;
  private cut = false;
  private paused = false;
  private pending?: () => void;

  constructor(
    readonly req: LinkedRequest,
    private readonly target: ReplyTarget,
  ) {
    super();
    target.attach({
      pause: () => {
        this.paused = true;
      },
      resume: () => {
        this.paused = false;
        const pending = this.pending;
        this.pending = undefined;
        pending?.();
      },
      abort: () => {
        this.cut = true;
        req.abort();
        this.destroy();
      },
    });
  }

  get headersSent(): boolean {
    return this.started;
  }

  /** ServerResponse's (deprecated) name for "end() was called". */
  get finished(): boolean {
    return this.writableEnded;
  }

  setHeader(name: string, value: HeaderValue): this {
    if (this.started) throw headersSentError();
    this.outHeaders.set(name.toLowerCase(), [name, value]);
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.outHeaders.get(name.toLowerCase())?.[1];
  }

  getHeaders(): OutgoingHttpHeaders {
    const out: OutgoingHttpHeaders = Object.create(null);
    for (const [key, [, value]] of this.outHeaders) out[key] = value as OutgoingHttpHeader;
    return out;
  }

  getHeaderNames(): string[] {
    return [...this.outHeaders.keys()];
  }

  hasHeader(name: string): boolean {
    return this.outHeaders.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    if (this.started) throw headersSentError();
    this.outHeaders.delete(name.toLowerCase());
  }

  writeHead(statusCode: number, reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    if (this.started) throw headersSentError();
    let fields = headers;
    if (typeof reason === 'string') this.statusMessage = reason;
    else fields = reason;
    this.statusCode = statusCode;
    if (Array.isArray(fields)) {
      // Node's flat form: [name, value, name, value, ...].
      for (let i = 0; i + 1 < fields.length; i += 2) this.setHeader(String(fields[i]), fields[i + 1] as HeaderValue);
    } else if (fields) {
      for (const name of Object.keys(fields)) {
        const value = fields[name];
        if (value !== undefined) this.setHeader(name, value);
      }
    }
    this.startReply();
    return this;
  }

  flushHeaders(): void {
    if (!this.started) this.startReply();
  }

  // Interim replies and trailers have no use on the link; the final reply is what counts.
  writeContinue(): void {}
  writeProcessing(): void {}
  writeEarlyHints(_hints: unknown, callback?: () => void): void {
    callback?.();
  }
  addTrailers(): void {}
  setTimeout(): this {
    return this;
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    // As Node does for a reply ended whole before its head was written: the length is known.
    if (!this.started && !this.writableEnded && typeof chunk !== 'function' && !bodiless(this.statusCode) && !this.hasHeader('content-length') && !this.hasHeader('transfer-encoding')) {
      const length = chunk === undefined || chunk === null ? 0 : typeof chunk === 'string' ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : (chunk as Buffer).length;
      this.setHeader('content-length', String(length));
    }
    return super.end(chunk as Buffer, encoding as BufferEncoding, callback as () => void);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.started) this.startReply();
    this.target.data(chunk);
    if (this.paused) this.pending = callback;
    else callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.started) this.startReply();
    this.ended = true;
    this.target.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The service dropped its reply half-way (a stream that failed): as a connection it closed.
    if (!this.ended && !this.cut) this.target.fail('unavailable');
    this.pending = undefined;
    callback(error);
  }

  private startReply(): void {
    this.started = true;
    const headers: IncomingHttpHeaders = {};
    for (const [key, [, value]] of this.outHeaders) headers[key] = typeof value === 'number' ? String(value) : (value as string | string[]);
    this.target.start(this.statusCode, headers, this.statusMessage || undefined);
  }
}

/**
 * Whether the gateway in this process already logs and measures this request (it came through
 * the in-process link from the gateway's proxy): the service then writes no request line and
 * observes no duration of its own, so a request is one line and one observation, not one per hop.
 * Only an object the link made can say so: nothing a client sends (no header) switches a
 * service's logging off.
 */
export function observedUpstream(req: IncomingMessage | LinkedRequest): boolean {
  return req instanceof LinkedRequest && req.observed;
}
