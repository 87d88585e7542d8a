import type { ServerResponse } from 'node:http';
import { ErrorCode, genericErrorCode } from '@app/contracts';

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

/** A JSON reply of the gateway's own (the merged docs, the member export), as Express's `res.json` sent it. */
export function sendJson(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json), ...headers });
  res.end(json);
}
