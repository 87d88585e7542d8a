import type { IncomingMessage } from 'node:http';
import { loadGatewayConfig } from '../gateway.app';
import { clientAddress, TrustedProxies } from './client-address';

/** Issue 45 §7: X-Forwarded-For is read only from the proxies TRUST_PROXY names. */
const from = (peer: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('clientAddress and TRUST_PROXY', () => {
  it('believes no forwarded address by default, not even from loopback', () => {
    const none = new TrustedProxies('');
    expect(clientAddress(from('127.0.0.1', '10.0.0.7'), none)).toBe('127.0.0.1');
    expect(clientAddress(from('::1', '10.0.0.7'), none)).toBe('::1');
    expect(clientAddress(from('203.0.113.5', '10.0.0.7'), none)).toBe('203.0.113.5');
  });

  it('reads past the named proxies only: the first untrusted hop from the right, never what the client wrote before it', () => {
    const trusted = new TrustedProxies('loopback, 10.1.0.0/16, 192.0.2.9');
    expect(clientAddress(from('127.0.0.1', '198.51.100.4'), trusted)).toBe('198.51.100.4');
    expect(clientAddress(from('::ffff:127.0.0.1', '198.51.100.4'), trusted)).toBe('198.51.100.4');
    // the client's own "1.2.3.4" stands left of the address the proxy saw
    expect(clientAddress(from('10.1.4.4', '1.2.3.4, 198.51.100.4, 192.0.2.9'), trusted)).toBe('198.51.100.4');
    // a peer that is not a named proxy is the client, whatever it forwards
    expect(clientAddress(from('10.2.0.1', '198.51.100.4'), trusted)).toBe('10.2.0.1');
    // garbage is no address: the last trusted hop stands
    expect(clientAddress(from('127.0.0.1', 'not-an-ip'), trusted)).toBe('127.0.0.1');
  });

  it('refuses a TRUST_PROXY entry that is no address, range or loopback, naming it', () => {
    const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32) };
    expect(loadGatewayConfig({ ...base }).TRUST_PROXY).toBe('');
    expect(loadGatewayConfig({ ...base, TRUST_PROXY: 'loopback,10.0.0.0/8,fd00::/8' }).TRUST_PROXY).toBe('loopback,10.0.0.0/8,fd00::/8');
    expect(() => loadGatewayConfig({ ...base, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: "true" is not an IP address/);
    expect(() => loadGatewayConfig({ ...base, TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY: "10.0.0.0\/40" has a prefix length out of range/);
  });
});
