import type { IncomingMessage } from 'node:http';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The client's address with proxies on loopback trusted (Express's `trust proxy: 'loopback'`):
 * from the connection back through X-Forwarded-For, the first hop that is not loopback. A
 * client cannot pick its address: only a loopback peer's forwarded-for is read at all.
 */
export function clientAddress(req: IncomingMessage): string | undefined {
  const peer = req.socket.remoteAddress;
  if (peer === undefined || !LOOPBACK.test(peer)) return peer;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
    .reverse();
  let address = peer;
  for (const hop of forwarded) {
    address = hop;
    if (!LOOPBACK.test(hop)) break;
  }
  return address;
}
