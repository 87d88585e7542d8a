import type { ServerResponse } from 'node:http';

/** The gateway's own error replies, in the same envelope as the services' (ARCHITECTURE §4). */
export function sendEnvelopeError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ success: false, message });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}
