import type { FastifyInstance } from 'fastify';
import type { Writable } from 'node:stream';
import { observedUpstream } from '../link/linked-exchange';
import { httpDuration } from './metrics';

/**
 * Records each response's duration under its route pattern (never the raw path: bounded labels)
 * and the status actually sent, from Fastify's own clock: one hook instead of an interceptor.
 */
export function observeRequests(fastify: FastifyInstance, service: string): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    // The gateway in this process measures a request that came through the in-process link.
    if (observedUpstream(request.raw)) return done();
    httpDuration.observe(
      { service, method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/** The same observation for a request the in-process link's direct lane answers without Fastify. */
export function observeDirectRequest(service: string, method: string, route: string, res: Writable & { statusCode: number }): void {
  const started = performance.now();
  res.once('close', () => httpDuration.observe({ service, method, route, status: String(res.statusCode) }, (performance.now() - started) / 1000));
}
