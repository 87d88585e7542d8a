import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, genericErrorCode } from '@app/contracts';
import { compressReply } from '../compression/reply-compression';

/**
 * The gateway's own error replies, in the same envelope as the services' (ARCHITECTURE §4). The
 * code is the generic one of the status unless the caller knows a closer one.
 */
export function sendEnvelopeError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code: ErrorCode = genericErrorCode(status),
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ success: false, message, code });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/**
 * A reply of the gateway's own (the merged search, the docs, the member export), compressed by the client's
 * Accept-Encoding when it is large enough to pay, as the services' replies are.
 */
export function sendBody(req: IncomingMessage, res: ServerResponse, status: number, type: string, text: string, headers: Record<string, string> = {}): void {
  const out: Record<string, string | string[] | undefined> = { 'content-type': type, ...lowerCased(headers) };
  const body = compressReply(req.headers['accept-encoding'], Buffer.from(text), out);
  out['content-length'] = String(body.length);
  res.writeHead(status, out as Record<string, string | string[]>);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A JSON reply of the gateway's own, as Express's `res.json` sent it (compressed when large). */
export function sendJson(req: IncomingMessage, res: ServerResponse, body: unknown, headers: Record<string, string> = {}, status = 200): void {
  sendBody(req, res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
