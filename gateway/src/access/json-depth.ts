import type { IncomingMessage } from 'node:http';
import { jsonDepthExceeds, TOO_DEEP_MESSAGE } from '@app/platform';
import type { Step } from '../http/pipeline';
import { sendEnvelopeError } from '../proxy/envelope-reply';

/** A JSON body the gateway read to check it; forwarded as these bytes instead of the stream. */
export interface BufferedRequest extends IncomingMessage {
  bufferedBody?: Buffer;
}

/** Plain UTF-8 JSON: the only bodies scanned here (a compressed one is checked by the service once inflated). */
function isPlainJson(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/json\s*(;|$)/.test(type)) return false;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/.exec(type)?.[1];
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  return encoding === 'identity' && (charset === undefined || charset === 'utf-8' || charset === 'utf8');
}

/**
 * Reads a JSON body (at most `limit` bytes, 413 beyond) and refuses nesting deeper than 32
 * levels with a 400 envelope before any service sees it: validating such a body overflowed the
 * stack (a 500). The services check again (libs/platform body parsers) for requests that
 * reach them another way.
 */
export function createJsonDepthCheck(limit: number): Step<BufferedRequest> {
  return (req, res, next) => {
    if (!isPlainJson(req)) return next();
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        return sendEnvelopeError(res, 413, 'Request body is too large');
      }
      chunks.push(chunk);
    });
    req.once('error', () => undefined);
    req.once('end', () => {
      if (refused) return;
      const body = Buffer.concat(chunks, size);
      if (jsonDepthExceeds(body)) return sendEnvelopeError(res, 400, TOO_DEEP_MESSAGE);
      req.bufferedBody = body;
      next();
    });
  };
}
