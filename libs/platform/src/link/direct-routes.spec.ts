import { Body, Controller, Delete, Get, Headers, INestApplication, Module, Param, Post, Query, Res, StreamableFile } from '@nestjs/common';
import { IsString, MinLength } from 'class-validator';
import { JwtService } from '@nestjs/jwt';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { NotificationListQueryDto } from '@app/contracts';
import { MemoryTransport } from '@app/bus';
import { SqliteStore } from '@app/store';
import { AuthenticatedUser, CurrentUser } from '../auth/current-user.decorator';
import { Public } from '../auth/public.decorator';
import { buildService } from '../bootstrap/service-definition';
import { serviceRouter } from '../bootstrap/service-app';
import { loadConfig, PlatformConfig } from '../config/platform.config';
import { Reply } from '../http/api-reply';
import { CodedException } from '../http/coded.exception';
import { httpDuration } from '../metrics/metrics';
import { LinkedRequest, LinkedResponse, type ReplyTarget } from './linked-exchange';

const SECRET = 'direct-lane-secret-that-is-at-least-32-characters';

class NoteDto {
  @IsString()
  @MinLength(2)
  text!: string;
}

@Controller('probe')
class ProbeController {
  @Get('me')
  me(@CurrentUser() user: AuthenticatedUser) {
    return { id: user.id, username: user.username };
  }

  @Public()
  @Get('items/:id')
  item(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return { id, query };
  }

  @Get('pages')
  pages(@Query() query: NotificationListQueryDto) {
    return Reply.list([{ n: 1 }], 1, query.page, query.limit, { unread_only: query.unread_only });
  }

  @Post('notes')
  note(@CurrentUser() user: AuthenticatedUser, @Body() dto: NoteDto) {
    return { by: user.username, text: dto.text };
  }

  @Delete('notes/:id')
  drop(@Param('id') id: string, @Body() body: unknown) {
    return { id, body: body ?? null };
  }

  @Get('missing')
  missing(): never {
    throw new CodedException('NOT_FOUND', 'Nothing here');
  }

  @Public()
  @Get('files/:id')
  file(@Param('id') id: string, @Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) res: FastifyReply) {
    res.header('ETag', `"${id}"`);
    if (ifNoneMatch === `"${id}"`) {
      res.status(304);
      return undefined;
    }
    return new StreamableFile(Buffer.from(`bytes of ${id}`), { type: 'image/png', length: 8 + id.length + 1 });
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Collects one reply as the gateway's relay would see it. */
function collector(): { target: ReplyTarget; answer: Promise<Answer> } {
  let status = 0;
  let headers: IncomingHttpHeaders = {};
  const chunks: Buffer[] = [];
  let done!: (answer: Answer) => void;
  let failed!: (err: Error) => void;
  const answer = new Promise<Answer>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  const target: ReplyTarget = {
    attach: () => undefined,
    start: (s, h) => {
      status = s;
      headers = h;
    },
    data: (chunk) => void chunks.push(chunk),
    end: () => done({ status, headers, body: Buffer.concat(chunks).toString() }),
    fail: (failure) => failed(new Error(failure)),
  };
  return { target, answer };
}

// The direct lane takes the gateway's requests, and the same answer must come from Fastify's own
// routing, byte for byte.
describe('the in-process link’s direct lane', () => {
  let app: INestApplication;
  let routing: jest.SpyInstance;
  let route: (req: IncomingMessage, res: ServerResponse) => void;
  let token: string;

  beforeAll(async () => {
    const config = loadConfig(PlatformConfig, 'probe', { NODE_ENV: 'test', DATA_DIR: ':memory:', JWT_SECRET: SECRET, LOG_LEVEL: 'silent' });
    app = await buildService({ name: 'probe', collections: [], imports: [ProbeModule] }, { config, store: new SqliteStore(), transport: new MemoryTransport() });
    routing = jest.spyOn(app.getHttpAdapter().getInstance() as FastifyInstance, 'routing');
    route = serviceRouter(app);
    token = new JwtService({ secret: SECRET }).sign({ sub: 'u1', username: 'ann' }, { algorithm: 'HS256', expiresIn: 600 });
  });

  afterAll(() => app.close());

  /** Through the service's router (`viaFastify`: Fastify's routing itself, the reference). */
  async function ask(url: string, viaFastify: boolean, headers: IncomingHttpHeaders = {}, method = 'GET', body: Buffer | null = null): Promise<Answer> {
    const { target, answer } = collector();
    const req = new LinkedRequest({ method, url, headers: { host: 'probe', ...headers }, body, observed: true });
    const res = new LinkedResponse(req, target) as unknown as ServerResponse;
    if (viaFastify) (app.getHttpAdapter().getInstance() as FastifyInstance).routing(req as unknown as IncomingMessage, res);
    else route(req as unknown as IncomingMessage, res);
    const { status, headers: out, body: text } = await answer;
    // A request Fastify takes gets an id of its own (the gateway's for an observed one).
    delete out['x-request-id'];
    return { status, headers: out, body: text };
  }

  /** The answer of both lanes, which must be the same; and whether the direct one kept out of Fastify. */
  async function bothLanes(url: string, headers: IncomingHttpHeaders = {}, method = 'GET', body: Buffer | null = null): Promise<{ answer: Answer; direct: boolean }> {
    routing.mockClear();
    const direct = await ask(url, false, headers, method, body);
    const tookDirect = routing.mock.calls.length === 0;
    const viaFastify = await ask(url, true, headers, method, body);
    expect(direct).toEqual(viaFastify);
    return { answer: direct, direct: tookDirect };
  }

  const auth = () => ({ authorization: `Bearer ${token}` });

  it('answers a member’s GET from the route’s handler, enveloped, without Fastify', async () => {
    const { answer, direct } = await bothLanes('/api/probe/me', auth());
    expect(direct).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({ success: true, data: { id: 'u1', username: 'ann' } });
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
  });

  it('refuses a request without a token as Fastify does (the guard runs)', async () => {
    const { answer, direct } = await bothLanes('/api/probe/me');
    expect(direct).toBe(true);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });

  it('routes as Fastify does: any case, a trailing slash, params decoded, the query parsed flat', async () => {
    const { answer, direct } = await bothLanes('/API/Probe/items/%C3%A7ay/?tag=a&tag=b&userId[$ne]=x');
    expect(direct).toBe(true);
    expect(JSON.parse(answer.body).data).toEqual({ id: 'çay', query: { tag: ['a', 'b'], 'userId[$ne]': 'x' } });
  });

  it('validates the query with the route’s DTO: the same field errors', async () => {
    const bad = await bothLanes('/api/probe/pages?limit=0&unread_only=maybe', auth());
    expect(bad.direct).toBe(true);
    expect(bad.answer.status).toBe(400);
    expect(JSON.parse(bad.answer.body).errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'limit' }), expect.objectContaining({ field: 'unread_only' })]));
    const good = await bothLanes('/api/probe/pages?page=2&limit=5&unread_only=true', auth());
    expect(JSON.parse(good.answer.body)).toMatchObject({ success: true, data: [{ n: 1 }], meta: { page: 2, limit: 5, unread_only: true } });
  });

  it('sends a handler’s coded error through the exception filter', async () => {
    const { answer, direct } = await bothLanes('/api/probe/missing', auth());
    expect(direct).toBe(true);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ success: false, message: 'Nothing here', code: 'NOT_FOUND' });
  });

  it('streams a file with the headers its handler set, and answers 304 without a body', async () => {
    const file = await bothLanes('/api/probe/files/p1');
    expect(file.direct).toBe(true);
    expect(file.answer).toMatchObject({ status: 200, body: 'bytes of p1', headers: { 'content-type': 'image/png', etag: '"p1"', 'content-length': '11' } });
    const unchanged = await bothLanes('/api/probe/files/p1', { 'if-none-match': '"p1"' });
    expect(unchanged.answer).toMatchObject({ status: 304, body: '' });
    expect(unchanged.answer.headers['content-length']).toBeUndefined();
  });

  it('takes a request the gateway does not log (a socket event’s call), which the service logs and measures itself', async () => {
    const counted = async () => {
      const metric = await httpDuration.get();
      const mine = metric.values.find((v) => v.metricName === 'http_request_duration_seconds_count' && v.labels.service === 'probe' && v.labels.route === '/api/probe/me');
      return mine?.value ?? 0;
    };
    const before = await counted();
    routing.mockClear();
    const { target, answer } = collector();
    const req = new LinkedRequest({ method: 'GET', url: '/api/probe/me', headers: { host: 'probe', ...auth() }, body: null, observed: false });
    route(req as unknown as IncomingMessage, new LinkedResponse(req, target) as unknown as ServerResponse);
    const reply = await answer;
    expect(routing).not.toHaveBeenCalled();
    expect(reply.status).toBe(200);
    expect(reply.headers['x-request-id']).toEqual(expect.any(String));
    await new Promise((r) => setImmediate(r)); // the response closes after its last byte is handed over
    expect(await counted()).toBe(before + 1);
  });

  it('leaves to Fastify what it does not take: an unknown path, an empty parameter', async () => {
    const unknown = await bothLanes('/api/probe/nowhere', auth());
    expect(unknown.direct).toBe(false);
    expect(unknown.answer.status).toBe(404);
    const empty = await bothLanes('/api/probe/files//');
    expect(empty.direct).toBe(false);
    expect(empty.answer.status).toBe(404);
  });

  describe('with a body', () => {
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    const posted = (body: Buffer, headers: IncomingHttpHeaders = { 'content-type': 'application/json' }) =>
      bothLanes('/api/probe/notes', { ...auth(), ...headers, 'content-length': String(body.length) }, 'POST', body);

    it('takes a JSON body whole, read by the app’s parser: the handler’s 201 with what it read', async () => {
      const { answer, direct } = await posted(json({ text: 'çay' }), { 'content-type': 'application/json; charset=utf-8' });
      expect(direct).toBe(true);
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toEqual({ success: true, data: { by: 'ann', text: 'çay' } });
    });

    it('validates the body with the route’s DTO: the same field errors', async () => {
      const { answer, direct } = await posted(json({ text: 'x' }));
      expect(direct).toBe(true);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).errors).toEqual([expect.objectContaining({ field: 'text' })]);
    });

    it('takes a DELETE with a JSON body, and one with none (no body for the handler)', async () => {
      const withBody = await bothLanes('/api/probe/notes/n1', { ...auth(), 'content-type': 'application/json' }, 'DELETE', json({ password: 'p' }));
      expect(withBody.direct).toBe(true);
      expect(JSON.parse(withBody.answer.body).data).toEqual({ id: 'n1', body: { password: 'p' } });
      const without = await bothLanes('/api/probe/notes/n1', auth(), 'DELETE');
      expect(without.direct).toBe(true);
      expect(JSON.parse(without.answer.body).data).toEqual({ id: 'n1', body: null });
    });

    it('leaves to Fastify, which words the refusal, a body its parser refuses: malformed, too deep, too large', async () => {
      const malformed = await posted(Buffer.from('{"text": '));
      expect(malformed.direct).toBe(false);
      expect(malformed.answer.status).toBe(400);
      expect(JSON.parse(malformed.answer.body).message).toBe('Malformed JSON body');
      const deep = await posted(Buffer.from(`${'['.repeat(200)}${']'.repeat(200)}`));
      expect(deep.direct).toBe(false);
      expect(deep.answer.status).toBe(400);
      const large = await posted(json({ text: 'x'.repeat(2 * 1024 * 1024) }));
      expect(large.direct).toBe(false);
      expect(large.answer.status).toBe(413);
    });

    it('leaves to Fastify another content type and a body that still streams in', async () => {
      const text = await posted(Buffer.from('text=hello'), { 'content-type': 'application/x-www-form-urlencoded' });
      expect(text.direct).toBe(false);
      expect(JSON.parse(text.answer.body).data).toEqual({ by: 'ann', text: 'hello' });
      routing.mockClear();
      const { target, answer } = collector();
      const req = new LinkedRequest({ method: 'POST', url: '/api/probe/notes', headers: { host: 'probe', ...auth(), 'content-type': 'application/json' }, body: Readable.from([json({ text: 'streamed' })]), observed: true });
      route(req as unknown as IncomingMessage, new LinkedResponse(req, target) as unknown as ServerResponse);
      expect(JSON.parse((await answer).body).data).toEqual({ by: 'ann', text: 'streamed' });
      expect(routing).toHaveBeenCalled();
    });
  });
});
