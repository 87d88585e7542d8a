import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { genericErrorCode } from '@app/contracts';

/** Node's own answers to a request it could not parse, by its error code (else 400). */
const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request header fields are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'Request body is too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timed out'],
};

/**
 * Fastify's `clientErrorHandler` (the server's `clientError`): the answer to a request Node could
 * not parse (headers over 16 KB, a broken request line, a request that took too long) in the
 * error envelope, where Fastify sent a body of its own shape (issue 45 §8: the 431 was not an
 * envelope). Only when no reply of this connection has begun, as Node does; then the connection closes.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // Node's own check (http server's socketOnError) on the reply in flight, which it keeps on the socket.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const [status, reason, message] = ANSWERS[err.code ?? ''] ?? [400, 'Bad Request', 'Bad request'];
    const body = JSON.stringify({ success: false, message, code: genericErrorCode(status) });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
