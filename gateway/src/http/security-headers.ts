import type { ServerResponse } from 'node:http';
import helmet, { HelmetOptions } from 'helmet';
import type { Step } from './pipeline';

type HeaderValue = number | string | readonly string[];

/**
 * Helmet's headers in one step. Helmet's middleware runs a dozen of its own per request, each
 * setting a header that does not change with the request (~5 % of the gateway's CPU on a small
 * reply, profiled on the unread count): helmet runs once at boot on a response that records what
 * it does, and each request gets the recorded headers. CSP directives must be fixed values: a
 * directive computed per request (a nonce) would be frozen at its first value, so one is refused.
 */
export function securityHeaders(options: HelmetOptions): Step {
  const directives = typeof options.contentSecurityPolicy === 'object' ? (options.contentSecurityPolicy.directives ?? {}) : {};
  const computed = Object.entries(directives).find(([, value]) => [value].flat().some((v) => typeof v === 'function'));
  if (computed) throw new Error(`securityHeaders: the CSP directive ${computed[0]} is computed per request`);
  const set: [string, HeaderValue][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: HeaderValue) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let ran = false;
  helmet(options)({} as never, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    ran = true;
  });
  if (!ran) throw new Error('securityHeaders: helmet did not pass the request on at once');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}
