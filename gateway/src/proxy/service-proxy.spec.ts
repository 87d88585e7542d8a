import { Agent, createServer, IncomingHttpHeaders, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import { AddressInfo, createServer as createTcpServer, Server as TcpServer, Socket } from 'node:net';
import { HttpLink } from '../link/http-link';
import { InProcessLink } from '../link/in-process-link';
import { ServiceForwarder } from './service-proxy';

/** What the service saw of one request. */
interface Seen {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  bytes: number;
}

function listen(server: Server | TcpServer, port = 0): Promise<number> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server | TcpServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if (server instanceof Server) server.closeAllConnections();
  });
}

interface Reply {
  status: number;
  statusMessage?: string;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A raw request to the gateway; `body` chunks are written one by one, `hold` keeps it open. */
function send(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer[]; onRequest?: (req: ReturnType<typeof request>) => void },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    if (opts.onRequest) return opts.onRequest(req);
    for (const chunk of opts.body ?? []) req.write(chunk);
    req.end();
  });
}

// The same service, written against Node's request and response, behind either adapter of the
// link: on its own HTTP server (undici) or handed the request in this process.
describe.each(['http', 'in-process'] as const)('ServiceForwarder over the %s link', (kind) => {
  let service: Server;
  let servicePort: number;
  let handle: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;
  let seen: Seen[];
  let forwarder: ServiceForwarder;
  let inProcess: InProcessLink | undefined;
  let gateway: Server;
  let gatewayPort: number;

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const s: Seen = { method: req.method, url: req.url, headers: req.headers, bytes: 0 };
    seen.push(s);
    req.on('data', (c: Buffer) => (s.bytes += c.length));
    handle(req, res, s);
  };

  const startGateway = async (urls: Record<string, string>, timeoutMs = 2000) => {
    inProcess = kind === 'in-process' ? new InProcessLink({ reviews: serve }, timeoutMs) : undefined;
    forwarder = new ServiceForwarder(inProcess ?? new HttpLink(urls, timeoutMs));
    gateway = createServer((req, res) => {
      const service = forwarder.serviceFor(req.url ?? '');
      if (!service) return res.writeHead(404).end();
      forwarder.forward(req, res, service);
    });
    gatewayPort = await listen(gateway);
  };

  beforeEach(async () => {
    seen = [];
    handle = (_req, res) => res.end('{}');
    service = createServer(serve);
    servicePort = await listen(service);
    await startGateway({ reviews: `http://127.0.0.1:${servicePort}` });
  });

  afterEach(async () => {
    await forwarder.onApplicationShutdown();
    await close(gateway);
    await close(service);
  });

  it('knows the services it has a URL for', () => {
    expect(forwarder.serviceFor('/api/feed?page=1')).toBe('reviews');
    expect(forwarder.serviceFor('/api/auth/login')).toBeUndefined();
    expect(forwarder.serviceFor('/api/nothing')).toBeUndefined();
  });

  it('passes the path, query and end-to-end headers on, with the forwarding headers; no hop-by-hop ones either way', async () => {
    handle = (_req, res) => {
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('Connection', 'keep-alive, x-service-hop');
      res.setHeader('X-Service-Hop', 'no');
      res.setHeader('X-Service', 'yes');
      res.statusMessage = 'Fine';
      res.end('{"ok":true}');
    };
    const reply = await send(gatewayPort, {
      path: '/api/feed?page=2&x=%2F..%2F',
      headers: {
        Host: 'gateway.example:8080',
        Authorization: 'Bearer t',
        'X-Request-Id': 'req-1',
        'X-Forwarded-For': '203.0.113.9',
        Connection: 'keep-alive, x-client-hop',
        'X-Client-Hop': 'no',
        'Keep-Alive': 'timeout=5',
        TE: 'trailers',
        'Proxy-Authorization': 'Basic x',
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.statusMessage).toBe('Fine');
    expect(reply.text).toBe('{"ok":true}');
    expect(reply.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(reply.headers['x-service']).toBe('yes');
    expect(reply.headers['x-service-hop']).toBeUndefined();
    // The gateway's own connection header, not the service's keep-alive hint.
    expect(reply.headers['keep-alive']).not.toMatch(/timeout=65/);

    const [got] = seen;
    expect(got.method).toBe('GET');
    expect(got.url).toBe('/api/feed?page=2&x=%2F..%2F');
    expect(got.headers).toMatchObject({
      host: 'gateway.example:8080',
      authorization: 'Bearer t',
      'x-request-id': 'req-1',
      'x-forwarded-for': '203.0.113.9,127.0.0.1',
      'x-forwarded-port': '8080',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'gateway.example:8080',
    });
    for (const hop of ['x-client-hop', 'te', 'proxy-authorization']) expect(got.headers[hop]).toBeUndefined();
    expect(got.headers['keep-alive']).toBeUndefined();
  });

  it('collapses repeated slashes in the path as http-proxy did, keeping the query as sent', async () => {
    await send(gatewayPort, { path: '/api/feed//x///y?next=//z' });
    expect(seen[0].url).toBe('/api/feed/x/y?next=//z');
  });

  it('streams an upload to the service while the client is still sending it', async () => {
    let firstChunkArrived!: () => void;
    const arrived = new Promise<void>((r) => (firstChunkArrived = r));
    handle = (req, res, s) => {
      req.once('data', () => firstChunkArrived());
      req.on('end', () => res.end(JSON.stringify({ bytes: s.bytes })));
    };
    const chunk = Buffer.alloc(256 * 1024, 1);
    const reply = await send(gatewayPort, {
      method: 'POST',
      path: '/api/media',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(8 * chunk.length) },
      onRequest: (req) => {
        req.write(chunk);
        // The rest is only sent once the service has the first part: nothing waits for the whole body.
        void arrived.then(() => {
          for (let i = 1; i < 8; i++) req.write(chunk);
          req.end();
        });
      },
    });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ bytes: 8 * chunk.length });
    expect(seen[0].headers['content-length']).toBe(String(8 * chunk.length));
  });

  it('streams a chunked upload (no declared length) too', async () => {
    handle = (req, res, s) => req.on('end', () => res.end(JSON.stringify({ bytes: s.bytes })));
    const reply = await send(gatewayPort, {
      method: 'POST',
      path: '/api/media',
      headers: { 'Transfer-Encoding': 'chunked' },
      body: [Buffer.alloc(1000), Buffer.alloc(2000)],
    });
    expect(JSON.parse(reply.text)).toEqual({ bytes: 3000 });
  });

  it('lets the client have a reply the service sent before reading the whole upload', async () => {
    handle = (_req, res) => {
      res.writeHead(413, { 'Content-Type': 'application/json' });
      res.end('{"success":false,"message":"File is too large (max 2 MB)"}');
    };
    const big = Buffer.alloc(3 * 1024 * 1024, 1);
    const reply = await send(gatewayPort, {
      method: 'POST',
      path: '/api/media',
      headers: { 'Content-Length': String(big.length) },
      body: [big],
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text).message).toBe('File is too large (max 2 MB)');
  });

  it('reads away the rest of an upload the service did not want, so the client connection stays usable', async () => {
    handle = (_req, res) => res.writeHead(413).end('{}');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const big = Buffer.alloc(1024 * 1024, 1);
    const sendKept = (method: string, body?: Buffer) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: gatewayPort, method, path: '/api/media', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const first = await sendKept('POST', big);
    handle = (_req, res) => res.end('{}');
    const second = await sendKept('GET');
    agent.destroy();
    expect([first.status, second.status]).toEqual([413, 200]);
    expect(second.socket).toBe(first.socket);
  });

  it('answers 503 when the service is gone (nothing listens there, or stopped on the link), and finds it again once it is back', async () => {
    await close(service);
    inProcess?.stop('reviews');
    const down = await send(gatewayPort, { path: '/api/feed' });
    expect(down.status).toBe(503);
    expect(JSON.parse(down.text)).toEqual({ success: false, message: 'The reviews service is unavailable', code: 'SERVICE_UNAVAILABLE' });

    await listen(service, servicePort);
    inProcess?.start('reviews');
    const back = await send(gatewayPort, { path: '/api/feed' });
    expect(back.status).toBe(200);
  });

  it('answers 503 when the service drops the connection without a reply', async () => {
    handle = (_req, res) => res.destroy();
    const reply = await send(gatewayPort, { path: '/api/feed' });
    expect(reply.status).toBe(503);
  });

  it('answers 504 when the service does not answer within the time-out', async () => {
    await close(gateway);
    await forwarder.onApplicationShutdown();
    await startGateway({ reviews: `http://127.0.0.1:${servicePort}` }, 200);
    handle = (_req, res) => setTimeout(() => res.end('{}'), 1000).unref();
    const started = Date.now();
    const reply = await send(gatewayPort, { path: '/api/feed' });
    expect(reply.status).toBe(504);
    expect(JSON.parse(reply.text)).toEqual({ success: false, message: 'The reviews service did not answer in time', code: 'GATEWAY_TIMEOUT' });
    // undici checks this time-out on a 1 s tick.
    expect(Date.now() - started).toBeLessThan(1800);
  });

  // Only a socket can carry something that is not HTTP.
  if (kind === 'http') {
  it('answers 502 for a reply that is not HTTP', async () => {
    const sockets: Socket[] = [];
    const garbage = createTcpServer((socket) => {
      sockets.push(socket);
      socket.end('NOT HTTP AT ALL\r\n\r\n');
    });
    const port = await listen(garbage);
    await close(gateway);
    await forwarder.onApplicationShutdown();
    await startGateway({ reviews: `http://127.0.0.1:${port}` });
    const reply = await send(gatewayPort, { path: '/api/feed' });
    for (const socket of sockets) socket.destroy();
    await close(garbage);
    expect(reply.status).toBe(502);
    expect(JSON.parse(reply.text)).toEqual({ success: false, message: 'The reviews service is unavailable', code: 'BAD_GATEWAY' });
  });
  }

  it('answers 503 for a request in flight when the service goes away', async () => {
    let started!: () => void;
    const inService = new Promise<void>((r) => (started = r));
    handle = () => started();
    const pending = send(gatewayPort, { path: '/api/feed' });
    await inService;
    inProcess?.stop('reviews');
    await close(service);
    const reply = await pending;
    expect(reply.status).toBe(503);
    expect(JSON.parse(reply.text).message).toBe('The reviews service is unavailable');
  });

  it('fails the service’s read of an upload when the client goes away half-way (ECONNRESET, as a reset connection)', async () => {
    let failed!: (code?: string) => void;
    const readFailed = new Promise<string | undefined>((r) => (failed = r));
    let arrived!: () => void;
    const firstChunk = new Promise<void>((r) => (arrived = r));
    handle = (req) => {
      req.once('data', () => arrived());
      req.on('error', (err: NodeJS.ErrnoException) => failed(err.code));
    };
    const client = request({ host: '127.0.0.1', port: gatewayPort, method: 'POST', path: '/api/media', headers: { 'Content-Length': String(1024 * 1024) }, agent: false });
    client.on('error', () => undefined);
    client.write(Buffer.alloc(64 * 1024, 1));
    await firstChunk;
    client.destroy();
    await expect(readFailed).resolves.toBe('ECONNRESET');
  });

  it('aborts the upstream request when the client goes away', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((r) => (upstreamClosed = r));
    let started!: () => void;
    const inService = new Promise<void>((r) => (started = r));
    handle = (_req, res) => {
      started();
      res.on('close', () => upstreamClosed());
    };
    const client = request({ host: '127.0.0.1', port: gatewayPort, path: '/api/feed', agent: false });
    client.on('error', () => undefined);
    client.end();
    await inService;
    client.destroy();
    await expect(closed).resolves.toBeUndefined();
  });
});
