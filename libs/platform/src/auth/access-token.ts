import { JwtService } from '@nestjs/jwt';
import { createSecretKey, KeyObject } from 'node:crypto';
import { JwtClaims } from '@app/contracts';

/**
 * The HS256 secret as a KeyObject. Given a string, jsonwebtoken 9 first tries to parse it as
 * a PEM public key and catches the failure, on every sign and verify: that thrown error was
 * the largest single cost of a request (profiled in docs/PERFORMANCE.md). Same bytes, same key.
 */
export function hmacKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/**
 * jsonwebtoken checks an expiry only when there is one, so a token minted without `exp` (or
 * without a subject) would otherwise be accepted forever.
 */
export function assertAccessClaims(claims: JwtClaims): JwtClaims & { exp: number } {
  if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string' || !claims.sub) throw new Error('Token without exp or sub');
  return claims as JwtClaims & { exp: number };
}

/**
 * Verifies access tokens (HS256 pinned, `exp` and `sub` required) and remembers the tokens it
 * verified, keyed by the exact token string, until their `exp`: a member sends the same token
 * on every request, and the gateway and the service both check it. Only successes are kept;
 * a cached token past its expiry is dropped and refused exactly as jsonwebtoken refuses it.
 */
export class AccessTokenVerifier {
  private readonly jwt: JwtService;
  private readonly verified = new Map<string, JwtClaims & { exp: number }>();

  constructor(
    secret: string,
    private readonly capacity = 10_000,
  ) {
    this.jwt = new JwtService({ secret: hmacKey(secret), verifyOptions: { algorithms: ['HS256'] } });
  }

  /** The token's claims; throws when the signature, algorithm, expiry or claims are wrong. */
  verify(token: string): JwtClaims {
    const known = this.verified.get(token);
    // jsonwebtoken's rule: expired once the clock (whole seconds) reaches exp.
    if (known && Math.floor(Date.now() / 1000) < known.exp) return known;
    if (known) this.verified.delete(token);
    const claims = assertAccessClaims(this.jwt.verify<JwtClaims>(token, { algorithms: ['HS256'] }));
    // A Map iterates in insertion order: the first key is the oldest entry.
    if (this.verified.size >= this.capacity) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, Object.freeze(claims));
    return claims;
  }
}
