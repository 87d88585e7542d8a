import { Agent } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createProxyMiddleware, RequestHandler } from 'http-proxy-middleware';
import { ownerOf, ServiceName } from './routes';
import { sendEnvelopeError } from './envelope-reply';

export type ServiceUrls = Partial<Record<ServiceName, string>>;

interface TimedRequest extends IncomingMessage {
  proxyStartedAt?: number;
}

/**
 * Forwards /api/* to the owning service over keep-alive connections. A service that is
 * down answers 503, one slower than the time-out 504, both as envelopes.
 */
export function createServiceProxy(urls: ServiceUrls, timeoutMs: number): RequestHandler {
  // Idle sockets close after 30 s, well before the services' 65 s keep-alive time-out.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 30_000 });
  const targets = new Map(Object.entries(urls).filter(([, url]) => Boolean(url)) as [ServiceName, string][]);

  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    router: (req) => {
      const service = ownerOf(req.url ?? '');
      return service ? targets.get(service) : undefined;
    },
    target: 'http://127.0.0.1:9',
    pathFilter: (path) => {
      const service = ownerOf(path);
      return service !== undefined && targets.has(service);
    },
    agent,
    xfwd: true,
    proxyTimeout: timeoutMs,
    on: {
      proxyReq: (_proxyReq, req: TimedRequest) => {
        req.proxyStartedAt = Date.now();
      },
      error: (err, req: TimedRequest, res) => {
        const code = (err as NodeJS.ErrnoException).code;
        const elapsed = Date.now() - (req.proxyStartedAt ?? Date.now());
        const service = ownerOf(req.url ?? '') ?? 'service';
        if (elapsed >= timeoutMs - 50) {
          sendEnvelopeError(res as ServerResponse, 504, `The ${service} service did not answer in time`);
        } else {
          const status = code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENOTFOUND' ? 503 : 502;
          sendEnvelopeError(res as ServerResponse, status, `The ${service} service is unavailable`);
        }
      },
    },
  });
}
