import { HttpException } from '@nestjs/common';
import fastify, { FastifyInstance } from 'fastify';
import { gzipSync } from 'node:zlib';
import { byteLimit, registerBodyParsers } from './body-parsers';

describe('service body parsers (body-parser parity on Fastify)', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = fastify();
    registerBodyParsers(app, { jsonLimit: 1024, formLimit: 256 });
    app.setErrorHandler((err: Error, _req, reply) => {
      const status = err instanceof HttpException ? err.getStatus() : 500;
      void reply.code(status).send({ status, message: err.message });
    });
    app.post('/echo', async (req) => ({ body: req.body === undefined ? 'none' : req.body }));
    await app.ready();
  });

  afterAll(() => app.close());

  const post = (payload: string | Buffer, headers: Record<string, string>) => app.inject({ method: 'POST', url: '/echo', payload, headers });
  const json = (payload: string | Buffer, headers: Record<string, string> = {}) => post(payload, { 'content-type': 'application/json', ...headers });

  it('reads JSON objects and arrays, and an empty body as {}', async () => {
    expect((await json('{"a":1}')).json()).toEqual({ body: { a: 1 } });
    expect((await json(' [1]')).json()).toEqual({ body: [1] });
    expect((await json('')).json()).toEqual({ body: {} });
  });

  it('refuses what is not an object or an array, and broken JSON, with 400 Malformed JSON body on an open connection', async () => {
    for (const bad of ['null', '"str"', '1', '{"a":', '  ', '\u0000']) {
      const res = await json(bad);
      expect({ bad, status: res.statusCode, body: res.json() }).toEqual({ bad, status: 400, body: { status: 400, message: 'Malformed JSON body' } });
      expect(res.headers.connection).not.toBe('close');
    }
  });

  it('keeps a __proto__ key as a plain own key, as JSON.parse does', async () => {
    const res = await json('{"__proto__":{"polluted":true},"a":1}');
    expect(res.statusCode).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses JSON nested deeper than 32 levels with 400 before parsing, compressed or not', async () => {
    const deep = '['.repeat(33) + ']'.repeat(33);
    expect((await json(deep)).json()).toEqual({ status: 400, message: 'Request body is nested too deeply' });
    expect((await json(gzipSync('{"a":'.repeat(33) + '1' + '}'.repeat(33)), { 'content-encoding': 'gzip' })).statusCode).toBe(400);
    expect((await json('['.repeat(32) + ']'.repeat(32))).statusCode).toBe(200);
  });

  it('answers 413 over the limit, whether declared or streamed', async () => {
    const big = JSON.stringify({ a: 'x'.repeat(2000) });
    expect((await json(big)).json()).toEqual({ status: 413, message: 'Payload too large' });
    const chunked = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, payload: big });
    expect(chunked.statusCode).toBe(413);
  });

  it('inflates gzip bodies, refuses unknown encodings and non-UTF charsets with 415', async () => {
    expect((await json(gzipSync('{"a":2}'), { 'content-encoding': 'gzip' })).json()).toEqual({ body: { a: 2 } });
    expect((await json(gzipSync('x'.repeat(5000)), { 'content-encoding': 'gzip' })).statusCode).toBe(413);
    expect((await json('{}', { 'content-encoding': 'zz' })).statusCode).toBe(415);
    expect((await json('{}', { 'content-type': 'application/json; charset=latin1' })).json()).toEqual({ status: 415, message: 'Unsupported media type' });
  });

  it('reads forms with flat keys, never operator objects', async () => {
    const res = await post('content[$ne]=x&a=1&a=2', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.json()).toEqual({ body: { 'content[$ne]': 'x', a: ['1', '2'] } });
    const many = Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&');
    expect((await post(many, { 'content-type': 'application/x-www-form-urlencoded' })).statusCode).toBe(413);
  });

  it('refuses a body of any other content type with 415, and lets the type through without a body (issue 45 §8)', async () => {
    const unsupported = { status: 415, message: 'Unsupported media type' };
    expect((await post('{"a":1}', { 'content-type': 'text/plain' })).json()).toEqual(unsupported);
    expect((await post('x', { 'content-type': 'application/vnd.api+json' })).json()).toEqual(unsupported);
    expect((await post('', { 'content-type': 'text/plain' })).json()).toEqual({ body: 'none' });
  });

  it('reads limits as body-parser wrote them', () => {
    expect(byteLimit('256kb')).toBe(262_144);
    expect(byteLimit('1mb')).toBe(1_048_576);
    expect(byteLimit(10)).toBe(10);
  });
});
