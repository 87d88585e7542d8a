import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { LinkFailure, LinkFlow, ReplyTarget } from '@app/platform';
import type { ServiceName } from '../proxy/routes';

/** One request for a service, as the gateway sends it on (path and headers already rewritten). */
export interface LinkRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string | string[]>;
  /**
   * All of the body already read, the stream of it, or none. A stream is the link's to destroy
   * (undici does, when a service answers before reading it all): never the client's request itself.
   */
  body: Buffer | Readable | null;
  /** The gateway logs and measures this request itself (the proxy): the service need not. */
  observed: boolean;
  /** Overrides the link's time-out (no head, or no body bytes, for this long: `timeout`). */
  timeoutMs?: number;
}

/**
 * The link port between the gateway and the services (ARCHITECTURE §3 "Link"; decision in
 * docs/decisions/gateway.md). Two adapters: `InProcessLink` (embedded profile: the service's own
 * router in this process, one HTTP parse per request) and `HttpLink` (across processes: undici).
 * Both report a reply to a `ReplyTarget` the same way, so what the gateway makes of it (the
 * envelope errors, ETags, reply gates) is one code path.
 */
export interface ServiceLink {
  /** Whether this link reaches `service`. */
  has(service: ServiceName): boolean;
  /** Sends `request` to `service`; its reply (or why there is none) goes to `target`. */
  send(service: ServiceName, request: LinkRequest, target: ReplyTarget): void;
  /** In-flight requests end, connections close. */
  close(): Promise<void>;
}

export const SERVICE_LINK = Symbol('SERVICE_LINK');

/** A whole reply read by `exchange`. */
export interface LinkReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export class LinkError extends Error {
  constructor(
    readonly service: ServiceName,
    readonly failure: LinkFailure,
  ) {
    super(`The ${service} service gave no reply (${failure})`);
  }
}

/** Collects one reply whole. */
class Collector implements ReplyTarget {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly service: ServiceName,
    private readonly resolve: (reply: LinkReply) => void,
    private readonly reject: (err: LinkError) => void,
  ) {}

  attach(_flow: LinkFlow): void {}

  start(status: number, headers: IncomingHttpHeaders): void {
    this.status = status;
    this.headers = headers;
  }

  data(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  end(): void {
    this.resolve({ status: this.status, headers: this.headers, body: Buffer.concat(this.chunks) });
  }

  fail(failure: LinkFailure): void {
    this.reject(new LinkError(this.service, failure));
  }
}

/** The gateway's own call to a service (not a client's request passed on): the whole reply, or a LinkError. */
export function exchange(link: ServiceLink, service: ServiceName, request: Omit<LinkRequest, 'observed'>): Promise<LinkReply> {
  if (!link.has(service)) return Promise.reject(new LinkError(service, 'unavailable'));
  // Not observed: no client request of the gateway's stands for it, so the service logs it.
  return new Promise((resolve, reject) => link.send(service, { ...request, observed: false }, new Collector(service, resolve, reject)));
}
