import FindMyWay, { type HTTPVersion } from 'find-my-way';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { LinkedRequest, LinkedResponse, observedUpstream } from './linked-exchange';

/** How a service's router matches paths and parses queries: Fastify's router options, given to both lanes. */
export interface RouteMatching {
  caseSensitive: boolean;
  ignoreTrailingSlash: boolean;
  maxParamLength: number;
  querystringParser: (query: string) => Record<string, unknown>;
}

type HeaderValue = string | number | readonly string[];

/** Nest's handler of one route as Fastify calls it (the request and reply below stand in for Fastify's). */
type RouteHandler = (this: unknown, request: DirectRequest, reply: DirectReply) => unknown;

/** Statuses whose reply has no body. */
const bodiless = (status: number) => status < 200 || status === 204 || status === 304;

/**
 * The request a route handler reads on the direct lane: what Nest, its guards, param decorators
 * and the exception filter read of Fastify's request (method, url, headers, query, params, body,
 * id, user).
 */
export class DirectRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly id: string;
  user?: unknown;

  constructor(
    readonly raw: LinkedRequest,
    readonly params: Record<string, string | undefined>,
    readonly query: Record<string, unknown>,
    readonly body: unknown,
  ) {
    this.method = raw.method;
    this.url = raw.url;
    this.headers = raw.headers;
    // The service's own id for a request no gateway line stands for (`UnobservedRequests`).
    this.id = (raw as LinkedRequest & { id?: string }).id ?? (raw.headers['x-request-id'] as string | undefined) ?? '';
  }

  /** @fastify/multipart's test: a request on this lane carries JSON or nothing, never a form (an upload goes through Fastify). */
  isMultipart(): boolean {
    return false;
  }
}

/**
 * The reply a route handler sends on the direct lane: the part of Fastify's reply that Nest's
 * adapter, the envelope, the exception filter and the services' `@Res({ passthrough: true })`
 * handlers use (status, headers set and read, send), with Fastify's defaults for what `send` is
 * given (JSON, text, bytes, a stream, nothing).
 */
export class DirectReply {
  statusCode = 200;
  sent = false;
  private readonly outHeaders: Record<string, HeaderValue> = {};

  constructor(readonly raw: LinkedResponse) {}

  code(status: number): this {
    this.statusCode = status;
    return this;
  }

  status(status: number): this {
    return this.code(status);
  }

  header(name: string, value: HeaderValue): this {
    this.outHeaders[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.outHeaders[name.toLowerCase()];
  }

  send(payload?: unknown): this {
    if (this.sent) return this;
    this.sent = true;
    if (payload instanceof Readable) return this.stream(payload);
    let body: string | Buffer | undefined;
    if (payload === undefined || payload === null) body = undefined;
    else if (Buffer.isBuffer(payload)) body = this.typed(payload, 'application/octet-stream');
    else if (typeof payload === 'string') body = this.typed(payload, 'text/plain; charset=utf-8');
    else body = this.typed(JSON.stringify(payload), 'application/json; charset=utf-8');
    if (bodiless(this.statusCode)) body = undefined;
    else this.outHeaders['content-length'] = String(body === undefined ? 0 : Buffer.byteLength(body));
    this.raw.writeHead(this.statusCode, this.outHeaders as Record<string, string>);
    this.raw.end(body);
    return this;
  }

  private typed<T extends string | Buffer>(body: T, contentType: string): T {
    if (this.outHeaders['content-type'] === undefined) this.outHeaders['content-type'] = contentType;
    return body;
  }

  private stream(payload: Readable): this {
    if (this.outHeaders['content-type'] === undefined) this.outHeaders['content-type'] = 'application/octet-stream';
    this.raw.writeHead(this.statusCode, this.outHeaders as Record<string, string>);
    payload.once('error', () => this.raw.destroy());
    payload.pipe(this.raw);
    return this;
  }
}

interface Route {
  handler: RouteHandler;
  server: FastifyInstance;
  /** The route's pattern (`/api/users/:id`): a metric's label. */
  url: string;
}

/**
 * What the service does itself for a request that no line of the gateway's stands for (a call
 * the gateway makes for a socket event): its request line and its metric, as Fastify's hooks do.
 */
export type UnobservedRequests = (req: LinkedRequest, res: LinkedResponse, route: string) => void;

/** The methods the direct lane takes; a body only as JSON. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
const isMethod = (method: string): method is Method => (METHODS as readonly string[]).includes(method);

/** Reads a whole JSON body as the app's parser does; undefined where that parser would refuse it. */
export type JsonBodyReader = (headers: IncomingHttpHeaders, raw: Buffer) => { body: unknown } | undefined;

/** Not taken by the direct lane (Fastify's turn). */
const REFUSED = Symbol('refused');

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';', 1)[0].trim().toLowerCase();
  return type === 'application/json';
}

/**
 * The direct lane of the in-process link (docs/decisions/gateway.md): a request that the gateway
 * in this process hands over whole, with no body or a JSON one, goes straight to the Nest handler
 * of its route, with stand-ins for Fastify's request and reply, instead of through Fastify's
 * routing, request and reply objects, hooks, content-type parsing and serializer. The handler
 * itself is Nest's (guards, pipes, filters, the envelope) and the body is read by the app's own
 * JSON parser, so what a route answers is the same by either lane. A request no line of the
 * gateway's stands for (a socket event's call) takes the lane too when the app gives
 * `unobserved`, which logs and measures it as Fastify's hooks would. Anything else (another
 * method or content type, a body still streaming in, one the parser refuses, a path no route
 * takes, an empty parameter Nest refuses) goes through Fastify as before, which words any refusal.
 */
export class DirectRoutes {
  private readonly router: FindMyWay.Instance<HTTPVersion.V1>;

  constructor(
    matching: RouteMatching,
    private readonly readJson: JsonBodyReader,
    private readonly unobserved?: UnobservedRequests,
  ) {
    this.router = FindMyWay({ ...matching });
  }

  /** Learns every route the app registers from now on (call before Nest registers its routes). */
  learnFrom(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route: RouteOptions) => {
      if (route.constraints) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const entry: Route = { handler: route.handler as unknown as RouteHandler, server: fastify, url: route.url };
      for (const method of methods) if (isMethod(method)) this.router.on(method, route.url, () => undefined, entry);
    });
  }

  /** Answers the request on the direct lane, or says it does not take it (false: Fastify's turn). */
  handle(req: LinkedRequest, res: LinkedResponse): boolean {
    const method = req.method;
    const observed = observedUpstream(req);
    if (!isMethod(method) || !req.complete || (!observed && !this.unobserved)) return false;
    let found: FindMyWay.FindResult<HTTPVersion.V1> | null;
    try {
      found = this.router.find(method, req.url);
    } catch {
      return false; // an undecodable path: Fastify words the 400
    }
    if (!found) return false;
    const params = found.params as Record<string, string | undefined>;
    for (const name in params) if (params[name] === '' && name !== '*') return false;
    const body = this.bodyOf(req);
    if (body === REFUSED) return false;
    const route = found.store as Route;
    if (!observed) this.unobserved?.(req, res, route.url);
    const reply = new DirectReply(res);
    void Promise.resolve(route.handler.call(route.server, new DirectRequest(req, params, found.searchParams, body), reply)).catch(() => res.destroy());
    return true;
  }

  /** The body as Fastify would give it to the handler: none, or parsed JSON; REFUSED for anything else. */
  private bodyOf(req: LinkedRequest): unknown {
    const raw = req.wholeBody;
    if (raw === undefined) return REFUSED; // still streaming in
    const contentType = req.headers['content-type'];
    if (req.method === 'GET' || (contentType === undefined && !raw?.length)) return raw?.length ? REFUSED : undefined;
    if (!isJson(contentType)) return REFUSED;
    const read = this.readJson(req.headers, raw ?? Buffer.alloc(0));
    return read ? read.body : REFUSED;
  }
}
