import type { IncomingMessage, ServerResponse } from 'node:http';
import { routePath } from '../proxy/route-path';

export type Next = (err?: unknown) => void;

/**
 * One step of the gateway's request pipeline on Node's own request and response (connect's
 * shape): it answers, or calls `next`. Kept free of Express and Fastify types so the steps
 * run the same under any server (the Fastify glue is gatewayAdapter in gateway.app.ts).
 */
export type Step<Req extends IncomingMessage = IncomingMessage> = (req: Req, res: ServerResponse, next: Next) => void | Promise<void>;

/** Runs `steps` in order; `done()` once every one passed the request on, `done(err)` when one failed. */
export function runSteps<Req extends IncomingMessage>(steps: readonly Step<Req>[], req: Req, res: ServerResponse, done: Next): void {
  let index = 0;
  const next: Next = (err) => {
    if (err !== undefined) return done(err);
    const step = steps[index++];
    if (!step) return done();
    try {
      const pending = step(req, res, next);
      if (pending instanceof Promise) pending.catch(done);
    } catch (thrown) {
      done(thrown);
    }
  };
  next();
}

/** Whether the URL is under /api as the services route it (any case, escapes decoded). */
export function isApiPath(url: string): boolean {
  const path = routePath(url);
  return path === '/api' || path.startsWith('/api/');
}

/** The step for /api requests only (what Express's `app.use('/api', step)` was). */
export function underApi<Req extends IncomingMessage>(step: Step<Req>): Step<Req> {
  return (req, res, next) => (isApiPath(req.url ?? '/') ? step(req, res, next) : next());
}
