import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { LinkedRequest, LinkedResponse, type LinkFailure, type LinkFlow, type ReplyTarget, type ServiceRouter } from '@app/platform';
import type { ServiceName } from '../proxy/routes';
import type { LinkRequest, ServiceLink } from './service-link';

export type ServiceRouters = Partial<Record<ServiceName, ServiceRouter>>;

/**
 * One request on the link: passes the reply on to its target and keeps undici's time-outs
 * (no head, then no body bytes, for `timeoutMs`: 504), and can be cut from this side.
 */
class Exchange implements ReplyTarget, LinkFlow {
  private flow?: LinkFlow;
  private done = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly target: ReplyTarget,
    timeoutMs: number,
    private readonly settled: (exchange: Exchange) => void,
  ) {
    this.timer = setTimeout(() => this.cut('timeout'), timeoutMs);
  }

  attach(flow: LinkFlow): void {
    this.flow = flow;
    this.target.attach(this);
  }

  pause(): void {
    this.flow?.pause();
  }

  resume(): void {
    this.flow?.resume();
  }

  /** The target gave up (its client went away): nothing more to report. */
  abort(): void {
    this.settle();
    this.flow?.abort();
  }

  start(status: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    if (this.done) return;
    this.timer.refresh();
    this.target.start(status, headers, statusMessage);
  }

  data(chunk: Buffer): void {
    if (this.done) return;
    this.timer.refresh();
    this.target.data(chunk);
  }

  end(): void {
    if (this.settle()) this.target.end();
  }

  fail(failure: LinkFailure): void {
    if (this.settle()) this.target.fail(failure);
  }

  /** Ends it from the gateway's side (too slow, or the service stopped): the service sees an abort. */
  cut(failure: LinkFailure): void {
    if (!this.settle()) return;
    this.target.fail(failure);
    this.flow?.abort();
  }

  private settle(): boolean {
    if (this.done) return false;
    this.done = true;
    clearTimeout(this.timer);
    this.settled(this);
    return true;
  }
}

/** Headers as the service would have them from undici: the body's framing is the link's. */
function linkedHeaders({ headers, body }: LinkRequest): IncomingHttpHeaders {
  if (body === null) return headers;
  const out: IncomingHttpHeaders = { ...headers };
  if (Buffer.isBuffer(body)) {
    delete out['transfer-encoding'];
    out['content-length'] = String(body.length);
  } else if (out['content-length'] === undefined) {
    out['transfer-encoding'] = 'chunked';
  }
  return out;
}

/**
 * The link inside one process (the embedded profile): the gateway hands the request to the
 * service's own router (Fastify's `routing`, Node's request and response shape) as a
 * LinkedRequest/LinkedResponse pair. No socket, no second HTTP parse, no client. Everything else
 * is as across processes: the forwarded headers, the time-out, and a stopped service (the fault
 * drill) answering as a refused connection does, requests in flight at the stop included.
 */
export class InProcessLink implements ServiceLink {
  private readonly stopped = new Set<ServiceName>();
  private readonly inFlight = new Map<ServiceName, Set<Exchange>>();

  constructor(
    private readonly routers: ServiceRouters,
    private readonly timeoutMs: number,
  ) {}

  has(service: ServiceName): boolean {
    return this.routers[service] !== undefined;
  }

  send(service: ServiceName, request: LinkRequest, target: ReplyTarget): void {
    const router = this.routers[service] as ServiceRouter;
    if (this.stopped.has(service)) return target.fail('unavailable');
    let flights = this.inFlight.get(service);
    if (!flights) this.inFlight.set(service, (flights = new Set()));
    const exchange = new Exchange(target, request.timeoutMs ?? this.timeoutMs, (settled) => flights.delete(settled));
    flights.add(exchange);
    const req = new LinkedRequest({ method: request.method, url: request.path, headers: linkedHeaders(request), body: request.body, observed: request.observed });
    const res = new LinkedResponse(req, exchange);
    router(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  }

  /** The fault drill: from now on `service` answers as a process that is gone, and so do its requests in flight. */
  stop(service: ServiceName): void {
    this.stopped.add(service);
    this.cutAll(service);
  }

  /** The service is back: requests reach it again. */
  start(service: ServiceName): void {
    this.stopped.delete(service);
  }

  async close(): Promise<void> {
    for (const service of this.inFlight.keys()) this.cutAll(service);
  }

  private cutAll(service: ServiceName): void {
    for (const exchange of [...(this.inFlight.get(service) ?? [])]) exchange.cut('unavailable');
  }
}
