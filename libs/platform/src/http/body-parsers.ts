import {
  BadRequestException,
  HttpException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Readable } from 'node:stream';
import { TextDecoder as NodeTextDecoder } from 'node:util';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { jsonDepthExceeds, TOO_DEEP_MESSAGE } from './json-depth';

/**
 * The services' request bodies on Fastify, as Express's body-parser read them before
 * (json strict and urlencoded flat): a JSON object or array, `{}` for an empty body, a body
 * of any other type refused with 415 (issue 45 §8; body-parser ignored it), gzip/deflate/br bodies inflated,
 * a non-UTF charset refused with 415 and anything over the limit with 413.
 */

type Done = (err: Error | null, body?: unknown) => void;

/** What the parsers read of a request: its headers (Fastify's request, or the in-process link's). */
type BodyRequest = { headers: IncomingHttpHeaders };

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `'256kb'`, `'1mb'` or a byte count, as body-parser took its `limit`. */
export function byteLimit(limit: string | number): number {
  if (typeof limit === 'number') return limit;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!match) throw new Error(`Not a byte size: ${limit}`);
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]);
}

const INFLATE: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

const tooLarge = () => new PayloadTooLargeException('Payload too large');
const unsupported = () => new UnsupportedMediaTypeException('Unsupported media type');
const malformedJson = () => new BadRequestException('Malformed JSON body');

function charsetOf(req: BodyRequest): string | undefined {
  const type = req.headers['content-type'];
  if (!type || !type.includes('=')) return undefined;
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase();
}

/** The body as text: inflated when the client compressed it (at most `limit` bytes once inflated), then decoded. */
function bodyText(req: BodyRequest, raw: Buffer, limit: number, charset: string | undefined): string {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  let bytes = raw;
  if (encoding !== 'identity') {
    const inflate = INFLATE[encoding];
    if (!inflate) throw unsupported();
    try {
      bytes = inflate(raw, { maxOutputLength: limit });
    } catch (err) {
      throw (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : new BadRequestException('Bad request');
    }
  }
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') {
    const text = bytes.toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  let decoder: InstanceType<typeof NodeTextDecoder>;
  try {
    decoder = new NodeTextDecoder(charset);
  } catch {
    throw unsupported();
  }
  return decoder.decode(bytes);
}

/** The first character that is not JSON whitespace (space, tab, LF, CR). */
function firstNonSpace(text: string): string | undefined {
  for (const char of text) {
    if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return char;
  }
  return undefined;
}

function parseJson(req: BodyRequest, raw: Buffer, limit: number): unknown {
  const charset = charsetOf(req);
  if (charset !== undefined && !charset.startsWith('utf-')) throw unsupported();
  const text = bodyText(req, raw, limit, charset);
  if (text.length === 0) return {};
  // Strict, as body-parser's default: only an object or an array ('null' and '"str"' are refused).
  const first = firstNonSpace(text);
  if (first !== '{' && first !== '[') throw malformedJson();
  // Before parsing: validating a deeply nested body would overflow the stack (a 500).
  if (jsonDepthExceeds(text)) throw new BadRequestException(TOO_DEEP_MESSAGE);
  try {
    return JSON.parse(text);
  } catch {
    throw malformedJson();
  }
}

const MAX_PARAMETERS = 1000;

/** Flat keys (`a[$ne]=x` stays the key `a[$ne]`), at most 1000 of them. */
function parseForm(req: BodyRequest, raw: Buffer, limit: number): unknown {
  const charset = charsetOf(req);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'iso-8859-1') throw unsupported();
  const text = bodyText(req, raw, limit, charset);
  if (text.length === 0) return {};
  let count = 0;
  let index = -1;
  do {
    if (++count > MAX_PARAMETERS) throw tooLarge();
    index = text.indexOf('&', index + 1);
  } while (index !== -1);
  return parseQueryString(text, undefined, undefined, { maxKeys: 0 });
}

/** Whether a body comes with the request: one sent in chunks, or a declared length above 0. */
function hasBytes(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** A body that could not be read or parsed: the request fails before any route code runs. */
class BodyFailure {
  constructor(readonly error: HttpException) {}
}

/**
 * Reads the body (at most `limit` bytes, else 413 without reading further) and parses it.
 * A failure becomes the body and fails the request in `preValidation`: failing here would
 * make Fastify close the connection, and the gateway pass `Connection: close` on.
 */
function parser(parse: (req: BodyRequest, raw: Buffer, limit: number) => unknown, limit: number) {
  return (req: FastifyRequest, payload: Readable, done: Done): void => {
    const fail = (error: HttpException) => done(null, new BodyFailure(error));
    const declared = req.headers['content-length'] === undefined ? NaN : Number(req.headers['content-length']);
    // Left unread: Node discards it once the reply is sent, and the connection stays open.
    if (declared > limit && (req.headers['content-encoding'] ?? 'identity').toLowerCase() === 'identity') return fail(tooLarge());
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) return void chunks.push(chunk);
      stop();
      payload.resume();
      fail(tooLarge());
    };
    const onError = () => {
      stop();
      fail(new BadRequestException('Bad request'));
    };
    const onEnd = () => {
      stop();
      if (!Number.isNaN(declared) && received !== declared) return fail(new BadRequestException('Bad request'));
      let body: unknown;
      try {
        body = parse(req, Buffer.concat(chunks, received), limit);
      } catch (err) {
        return fail(err instanceof HttpException ? err : new BadRequestException('Bad request'));
      }
      done(null, body);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  };
}

/**
 * A whole JSON body already in memory, read as the `application/json` parser reads it (the same
 * limit, charset, encoding and depth rules); undefined when that parser would refuse it, so the
 * caller leaves the request to Fastify, which words the refusal. For the in-process link's direct lane.
 */
export function jsonBodyReader(limit: number): (headers: IncomingHttpHeaders, raw: Buffer) => { body: unknown } | undefined {
  return (headers, raw) => {
    const declared = headers['content-length'];
    if (raw.length > limit || (declared !== undefined && Number(declared) !== raw.length)) return undefined;
    try {
      return { body: parseJson({ headers }, raw, limit) };
    } catch {
      return undefined;
    }
  };
}

export interface BodyParserOptions {
  /** JSON body limit in bytes. */
  jsonLimit: number;
  /** Form body limit in bytes. */
  formLimit: number;
}

/**
 * Replaces Fastify's own parsers (secure-json-parse, which refuses a `__proto__` key
 * instead of keeping it as a plain own key, and text/plain) with the services' parsers.
 * Plugins registered afterwards (multipart in the reviews service) add their own types.
 */
export function registerBodyParsers(fastify: FastifyInstance, options: BodyParserOptions): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', parser(parseJson, options.jsonLimit));
  fastify.addContentTypeParser('application/x-www-form-urlencoded', parser(parseForm, options.formLimit));
  // Any other type with a body is refused (issue 45 §8): read as no body, as Express did, JSON sent
  // as text/plain was answered with its fields missing. The same type without a body passes.
  fastify.addContentTypeParser('*', (req: FastifyRequest, _payload: unknown, done: Done) =>
    done(null, hasBytes(req.headers) ? new BodyFailure(unsupported()) : undefined),
  );
  fastify.addHook('preValidation', (req, _reply, done) => {
    if (req.body instanceof BodyFailure) done(req.body.error);
    else done();
  });
}
