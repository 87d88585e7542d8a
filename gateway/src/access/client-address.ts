import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** TRUST_PROXY's words for ranges: `loopback` is 127.0.0.0/8 and ::1. */
const NAMED_RANGES: Record<string, string[]> = { loopback: ['127.0.0.0/8', '::1/128'] };

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) as the IPv4 address it carries. */
const unmapped = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/** Why one TRUST_PROXY entry is not an address, a range (address/prefix) or `loopback`; null when it is. */
export function trustedProxyProblem(entry: string): string | null {
  if (NAMED_RANGES[entry]) return null;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return `"${entry}" is not an IP address, a range like 10.0.0.0/8, or loopback`;
  if (prefix === undefined) return null;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128) ? null : `"${entry}" has a prefix length out of range`;
}

/** The entries of TRUST_PROXY (comma-separated). */
export const trustedProxyEntries = (value: string): string[] =>
  value.split(',').map((entry) => entry.trim()).filter(Boolean);

/**
 * The proxies TRUST_PROXY names, for `clientAddress`: none (the default) means X-Forwarded-For is
 * never read, so a client cannot choose the address its rate limits count against.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly any: boolean;

  constructor(value: string) {
    const entries = trustedProxyEntries(value).flatMap((entry) => NAMED_RANGES[entry] ?? [entry]);
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, Number(prefix), type);
    }
    this.any = entries.length > 0;
  }

  has(address: string): boolean {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/**
 * The client's address: the connection's peer, unless the peer is a proxy TRUST_PROXY names; then,
 * from the right of X-Forwarded-For, the first hop that is not a trusted proxy (what the last
 * trusted proxy saw). Hops to the left of it were written by the client and are never read.
 */
export function clientAddress(req: IncomingMessage, trusted: TrustedProxies): string | undefined {
  const peer = req.socket.remoteAddress;
  if (peer === undefined || !trusted.any || !trusted.has(peer)) return peer;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
    .reverse();
  let address = peer;
  for (const hop of forwarded) {
    // Not an address: no trusted proxy wrote it, so what stands to its right is the last word.
    if (isIP(unmapped(hop)) === 0) break;
    address = hop;
    if (!trusted.has(hop)) break;
  }
  return address;
}
