import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { preferredEncoding } from '../web/precompressed';

/**
 * Below one packet's payload a compressed reply saves no round trip and costs the CPU anyway.
 * Above it, a feed or profile page (3-30 KB of JSON) shrinks to a fifth to a tenth for 40-70 µs
 * of CPU per reply on this machine (brotli 4 and gzip 6 alike; brotli 11 would cost ten times that).
 */
export const COMPRESS_MIN_BYTES = 1400;
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

type Headers = Record<string, string | string[] | undefined>;

function addVary(headers: Headers): void {
  const listed = headers.vary === undefined ? [] : String(headers.vary).split(',').map((v) => v.trim()).filter(Boolean);
  if (!listed.some((v) => v.toLowerCase() === 'accept-encoding' || v === '*')) listed.push('Accept-Encoding');
  headers.vary = listed.join(', ');
}

function isCompressibleType(headers: Headers): boolean {
  const type = String(headers['content-type'] ?? '');
  return type.startsWith('application/json') || type.startsWith('text/html');
}

/**
 * Whether a reply about to start is worth reading whole to compress: JSON or HTML, not encoded yet, with a
 * body (not 204 or 304), not known to be too small, for a client that takes brotli or gzip. Any route, not
 * only the tagged ones (issue 43 §5: a product list page went out as 8 KB of plain JSON).
 */
export function isCompressibleReply(acceptEncoding: string | string[] | undefined, status: number, headers: Headers): boolean {
  if (status === 204 || status === 304 || status < 200 || !isCompressibleType(headers) || headers['content-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  if (length !== undefined && Number(length) < COMPRESS_MIN_BYTES) return false;
  return preferredEncoding(acceptEncoding) !== undefined;
}

/**
 * The body to send for a whole JSON reply (or an HTML page the gateway builds: a shared link's), brotli
 * or gzip by the client's Accept-Encoding when it is large enough to pay; `headers` (lower-case names)
 * get Content-Encoding, Vary and Content-Length to match. A reply already encoded, or of another type,
 * goes out as it is.
 */
export function compressReply(acceptEncoding: string | string[] | undefined, body: Buffer, headers: Headers): Buffer {
  if (!isCompressibleType(headers) || headers['content-encoding'] !== undefined) return body;
  addVary(headers);
  const encoding = body.length >= COMPRESS_MIN_BYTES ? preferredEncoding(acceptEncoding) : undefined;
  if (encoding === undefined) return body;
  const encoded =
    encoding === 'br'
      ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : gzipSync(body, { level: GZIP_LEVEL });
  headers['content-encoding'] = encoding;
  headers['content-length'] = String(encoded.length);
  return encoded;
}
