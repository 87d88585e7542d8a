import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { observedUpstream } from '@app/platform';
import { HttpLink } from './http-link';
import { InProcessLink } from './in-process-link';
import { exchange, LinkError, ServiceLink } from './service-link';

/** What the service saw of one request. */
interface Seen {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: string;
  observed: boolean;
}

// The gateway's own calls (socket.io's messaging calls) over either adapter: the whole reply, or
// a LinkError saying why there is none.
describe.each(['http', 'in-process'] as const)('exchange() over the %s link', (kind) => {
  let service: Server;
  let seen: Seen[];
  let handle: (req: IncomingMessage, res: ServerResponse) => void;
  let link: ServiceLink;

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString(), observed: observedUpstream(req) });
      handle(req, res);
    });
  };

  beforeEach(async () => {
    seen = [];
    handle = (_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-service': 'messaging' });
      res.end('{"success":true,"data":{"id":"m1"}}');
    };
    service = createServer(serve);
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    link = kind === 'in-process' ? new InProcessLink({ messaging: serve }, 2000) : new HttpLink({ messaging: url }, 2000);
  });

  afterEach(async () => {
    await link.close();
    await new Promise<void>((resolve) => {
      service.close(() => resolve());
      service.closeAllConnections();
    });
  });

  it('sends the method, path, headers and body, and gives back the whole reply', async () => {
    const body = Buffer.from(JSON.stringify({ content: 'héllo' }));
    const reply = await exchange(link, 'messaging', { method: 'POST', path: '/api/messages/conversations/c1/messages', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body });
    expect(reply.status).toBe(201);
    expect(reply.headers['x-service']).toBe('messaging');
    expect(JSON.parse(reply.body.toString())).toEqual({ success: true, data: { id: 'm1' } });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/api/messages/conversations/c1/messages',
        headers: expect.objectContaining({ authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': String(body.length) }),
        body: '{"content":"héllo"}',
        // Not a client's request the gateway logs: the service logs and measures it itself.
        observed: false,
      },
    ]);
  });

  it('fails with `unavailable` for a service it does not reach', async () => {
    await expect(exchange(link, 'auth', { method: 'GET', path: '/api/auth/me', headers: {}, body: null })).rejects.toEqual(new LinkError('auth', 'unavailable'));
  });

  it('fails with `timeout` for a service slower than the call’s time-out', async () => {
    handle = (_req, res) => setTimeout(() => res.end('{}'), 1500).unref();
    const started = Date.now();
    const failed = exchange(link, 'messaging', { method: 'GET', path: '/api/messages/conversations', headers: {}, body: null, timeoutMs: 100 });
    await expect(failed).rejects.toMatchObject({ service: 'messaging', failure: 'timeout' });
    // undici checks its time-outs on a 1 s tick; the in-process timer is exact.
    expect(Date.now() - started).toBeLessThan(kind === 'http' ? 1400 : 600);
  });
});

describe('InProcessLink, the fault drill', () => {
  it('answers `unavailable` while the service is stopped, for calls in flight too, and reaches it again once started', async () => {
    let arrived!: () => void;
    const inService = new Promise<void>((resolve) => (arrived = resolve));
    let answer = false;
    const link = new InProcessLink(
      {
        messaging: (_req, res) => {
          if (answer) return void res.end('{"success":true}');
          arrived();
        },
      },
      2000,
    );
    const call = () => exchange(link, 'messaging', { method: 'GET', path: '/api/messages/conversations', headers: {}, body: null });
    const inFlight = call();
    await inService;
    link.stop('messaging');
    await expect(inFlight).rejects.toMatchObject({ failure: 'unavailable' });
    await expect(call()).rejects.toMatchObject({ failure: 'unavailable' });
    link.start('messaging');
    answer = true;
    expect((await call()).status).toBe(200);
  });
});
