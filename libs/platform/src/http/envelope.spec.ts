import {
  CallHandler,
  Controller,
  Delete,
  ExecutionContext,
  Get,
  HttpCode,
  INestApplication,
  Injectable,
  Module,
  NestInterceptor,
  NotFoundException,
  Post,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { map, Observable } from 'rxjs';
import request from 'supertest';
import { Reply } from './api-reply';
import { EnvelopingFastifyAdapter } from './envelope';
import { AllExceptionsFilter } from './exception.filter';

/** The interceptor the services used before the adapter took the envelope over: the reference. */
@Injectable()
class ReferenceEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof StreamableFile) return result;
        if (result === undefined && context.switchToHttp().getResponse<{ statusCode: number }>().statusCode === 304) return undefined;
        if (result instanceof Reply) {
          return {
            success: true,
            data: result.data,
            ...(result.message !== undefined && { message: result.message }),
            ...(result.meta !== undefined && { meta: result.meta }),
            ...result.extra,
          };
        }
        return { success: true, data: result ?? null };
      }),
    );
  }
}

@Controller('x')
class ShapesController {
  @Get('object') object() {
    return { id: 'a', n: 1 };
  }
  @Get('async') async asyncObject() {
    return [1, 2];
  }
  @Get('nothing') nothing() {
    return undefined;
  }
  @Get('null') nil() {
    return null;
  }
  @Get('text') text() {
    return 'plain words';
  }
  @Get('list') list() {
    return Reply.list([{ id: 'a' }], 41, 2, 20, { unread_count: 3 });
  }
  @Post('message') message() {
    return Reply.message('Done', { ok: true });
  }
  @Get('extra') extra() {
    return new Reply({ id: 'a' }, undefined, undefined, { token: 't' });
  }
  @Delete('gone') @HttpCode(204) gone() {
    return undefined;
  }
  @Get('file') file() {
    return new StreamableFile(Buffer.from('PNGBYTES'), { type: 'image/png', length: 8 });
  }
  @Get('revalidated') revalidated(@Res({ passthrough: true }) res: FastifyReply) {
    void res.status(304);
    return undefined;
  }
  @Get('own') own(@Res() res: FastifyReply) {
    void res.type('text/plain').send('raw');
  }
  @Get('missing') missing() {
    throw new NotFoundException('Thing not found');
  }
}

@Module({ controllers: [ShapesController] })
class ShapesModule {}

async function build(adapter: FastifyAdapter, interceptor: boolean): Promise<INestApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(ShapesModule, adapter, { logger: false });
  app.useGlobalFilters(new AllExceptionsFilter({ error: () => undefined } as never));
  if (interceptor) app.useGlobalInterceptors(new ReferenceEnvelopeInterceptor());
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

const ROUTES: [string, string][] = [
  ['get', '/x/object'],
  ['get', '/x/async'],
  ['get', '/x/nothing'],
  ['get', '/x/null'],
  ['get', '/x/text'],
  ['get', '/x/list'],
  ['post', '/x/message'],
  ['get', '/x/extra'],
  ['delete', '/x/gone'],
  ['get', '/x/file'],
  ['get', '/x/revalidated'],
  ['get', '/x/own'],
  ['get', '/x/missing'],
  ['get', '/x/unknown'],
];

describe('the envelope in the adapter', () => {
  let reference: INestApplication;
  let enveloping: INestApplication;

  beforeAll(async () => {
    reference = await build(new FastifyAdapter(), true);
    enveloping = await build(new EnvelopingFastifyAdapter(), false);
  });
  afterAll(async () => {
    await reference.close();
    await enveloping.close();
  });

  async function answer(app: INestApplication, method: string, path: string) {
    const res = await (request(app.getHttpServer()) as unknown as Record<string, (p: string) => request.Test>)[method](path).buffer(true);
    const { date: _date, ...headers } = res.headers as Record<string, string>;
    return { status: res.status, headers, body: Buffer.from(res.text ?? (res.body as Buffer)).toString('latin1') };
  }

  it.each(ROUTES)('%s %s: the same status, headers and bytes as the interceptor sent', async (method, path) => {
    expect(await answer(enveloping, method, path)).toEqual(await answer(reference, method, path));
  });

  it('wraps data, list meta and messages as ARCHITECTURE §4 says', async () => {
    expect((await answer(enveloping, 'get', '/x/object')).body).toBe('{"success":true,"data":{"id":"a","n":1}}');
    expect((await answer(enveloping, 'get', '/x/nothing')).body).toBe('{"success":true,"data":null}');
    expect(JSON.parse((await answer(enveloping, 'get', '/x/list')).body)).toEqual({
      success: true,
      data: [{ id: 'a' }],
      meta: { total: 41, page: 2, limit: 20, totalPages: 3, unread_count: 3 },
    });
    expect((await answer(enveloping, 'post', '/x/message')).body).toBe('{"success":true,"data":{"ok":true},"message":"Done"}');
    const missing = await answer(enveloping, 'get', '/x/missing');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ success: false, message: 'Thing not found', code: 'NOT_FOUND' });
    const file = await answer(enveloping, 'get', '/x/file');
    expect([file.headers['content-type'], file.body]).toEqual(['image/png', 'PNGBYTES']);
    const revalidated = await answer(enveloping, 'get', '/x/revalidated');
    expect([revalidated.status, revalidated.body]).toEqual([304, '']);
  });
});
