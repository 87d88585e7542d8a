import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import helmet, { HelmetOptions } from 'helmet';
import { runSteps, Step } from './pipeline';
import { securityHeaders } from './security-headers';

const OPTIONS: HelmetOptions = { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } }, crossOriginEmbedderPolicy: false };

/** A server that answers after `step`, with an X-Powered-By set before it. */
function serverWith(step: Step) {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('X-Powered-By', 'something');
    runSteps([step], req, res, () => res.end('ok'));
  });
}

describe('securityHeaders', () => {
  it('sets exactly the headers helmet sets, on every request', async () => {
    const ours = await request(serverWith(securityHeaders(OPTIONS))).get('/a');
    const helmets = await request(serverWith(helmet(OPTIONS) as unknown as Step)).get('/a');
    const security = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name)));
    expect(security(ours.headers)).toEqual(security(helmets.headers));
    expect(ours.headers['x-powered-by']).toBeUndefined();
    expect(ours.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const again = await request(serverWith(securityHeaders(OPTIONS))).get('/b');
    expect(again.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('refuses a CSP directive computed per request', () => {
    const nonce = () => "'nonce-abc'";
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", nonce] } } })).toThrow(/scriptSrc/);
  });
});
