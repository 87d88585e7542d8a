import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendEnvelopeError } from '../proxy/envelope-reply';
import { routePath } from '../proxy/route-path';

/** Seconds a client is told to wait before it asks again while the stack starts. */
export const STARTING_RETRY_AFTER_SECONDS = 5;

/**
 * Closed while the stack gets ready behind an open port (the embedded profile's demo seed, issue
 * 46 case 2): every request but the liveness probe is answered 503 "starting" with Retry-After,
 * so no member's traffic races the seed and nothing a client sends can make the start fail.
 */
export class StartupGate {
  private closed = false;

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.closed = false;
  }

  get starting(): boolean {
    return this.closed;
  }

  /** True when it answered the request (the stack is still starting). */
  refuse(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.closed || routePath(req.url ?? '/') === '/health/live') return false;
    sendEnvelopeError(res, 503, 'starting', { 'Retry-After': String(STARTING_RETRY_AFTER_SECONDS) });
    return true;
  }
}
