import { existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import send from 'send';

/** The types the web build writes `.br` and `.gz` copies of (web/build/precompress.ts). */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

export type Encoding = 'br' | 'gzip';
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * The encoding to send from an Accept-Encoding header, brotli before gzip (smaller at the same
 * decode cost); undefined when the client takes neither (absent, `identity`, or q=0 on both).
 */
export function preferredEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of String(header).split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (token) weights.set(token, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: Encoding) => weights.get(name) ?? (name === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

/** Whether `file` is of a type the build compresses (its replies vary by Accept-Encoding). */
export function isCompressible(file: string): boolean {
  return TYPES[extname(file)] !== undefined;
}

/**
 * Sends `file` as its precompressed copy when the client accepts one and it exists, with the
 * original's Content-Type, `Content-Encoding`, `Vary: Accept-Encoding` and the copy's length
 * (send adds ETag, Last-Modified and conditional GETs from the copy, so each encoding has its own
 * validator). A range request is never answered from a copy (ranges count the identity's bytes
 * for a client that asked without knowing the encoding): false, and the caller sends the file.
 */
export function sendPrecompressed(req: IncomingMessage, res: ServerResponse, file: string, cacheControl: string, onError: (err: unknown) => void): boolean {
  const type = TYPES[extname(file)];
  if (type === undefined || req.headers.range !== undefined) return false;
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  if (encoding === undefined) return false;
  const copy = file + SUFFIX[encoding];
  if (!existsSync(copy) || !statSync(copy).isFile()) return false;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Encoding', encoding);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', cacheControl);
  send(req, copy, { acceptRanges: false, cacheControl: false })
    .on('error', onError)
    .pipe(res);
  return true;
}
