import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { requestLogging } from './logger';

const serviceLevels = {
  levels: ['debug', 'info', 'error'] as const,
  levelFor: (res: ServerResponse, err?: Error) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug') as 'error' | 'info' | 'debug',
};

/** The fields of a written log line these tests read. */
interface LogLine {
  level: number;
  msg: string;
  req: { id: string };
  res: { statusCode: number };
  err: { message: string };
}

function capture(level: string) {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level, redact: ['req.headers.authorization'] }, stream), lines };
}

describe('requestLogging', () => {
  let server: Server;
  let url: string;
  let listeners: number[];

  async function serve(middleware: ReturnType<typeof requestLogging>): Promise<void> {
    listeners = [];
    server = createServer((req: IncomingMessage, res: ServerResponse) =>
      middleware(req as never, res, () => {
        listeners.push(res.listenerCount('close'));
        const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 200);
        res.statusCode = status;
        res.end(JSON.stringify({ id: (req as IncomingMessage & { id?: string }).id }));
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('logs only the requests whose level is enabled, in pino-http shape, with the request id', async () => {
    const { logger, lines } = capture('info');
    await serve(requestLogging(logger, { ...serviceLevels, makeId: true }));
    await fetch(`${url}/ok`, { headers: { 'x-request-id': 'quiet-1' } });
    const notFound = await fetch(`${url}/missing?status=404`, { headers: { 'x-request-id': 'req-404' } });
    await fetch(`${url}/boom?status=500`, { headers: { 'x-request-id': 'req-500' } });
    await settle();
    expect(notFound.headers.get('x-request-id')).toBe('req-404');
    expect(lines.map((l) => [l.level, l.msg, l.req.id, l.res.statusCode])).toEqual([
      [30, 'request completed', 'req-404', 404],
      [50, 'request errored', 'req-500', 500],
    ]);
    expect(lines[0]).toEqual(expect.objectContaining({ req: { id: 'req-404', method: 'GET', url: '/missing?status=404' }, responseTime: expect.any(Number) }));
    expect(lines[1].err.message).toBe('failed with status code 500');
  });

  it('makes an id when the request has none and sends it back', async () => {
    const { logger } = capture('silent');
    await serve(requestLogging(logger, { ...serviceLevels, makeId: true }));
    const res = await fetch(url);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await res.json()) as { id: string }).id).toBe(id);
  });

  it('watches nothing when the level drops every line a request could make', async () => {
    const quiet = capture('fatal');
    await serve(requestLogging(quiet.logger, { levels: ['debug', 'error'], levelFor: () => 'debug' }));
    await fetch(url);
    expect(listeners[0]).toBe(0);
    await new Promise<void>((r) => server.close(() => r()));

    const loud = capture('debug');
    await serve(requestLogging(loud.logger, { levels: ['debug', 'error'], levelFor: () => 'debug' }));
    await fetch(url, { headers: { 'x-request-id': 'seen', authorization: 'Bearer secret' } });
    await settle();
    expect(listeners[0]).toBe(1);
    expect(loud.lines.map((l) => [l.level, l.req.id])).toEqual([[20, 'seen']]);
  });
});
