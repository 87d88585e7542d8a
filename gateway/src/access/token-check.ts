import type { IncomingMessage } from 'node:http';
import { JwtService } from '@nestjs/jwt';
import { JwtClaims } from '@app/contracts';
import { AccessTokenVerifier, assertAccessClaims } from '@app/platform';
import type { Step } from '../http/pipeline';
import { isPublicRoute, isVisitorRead } from '../proxy/routes';
import { sendEnvelopeError } from '../proxy/envelope-reply';
import { routePath } from '../proxy/route-path';
import { SessionCutoffs } from './session-cutoffs';

export interface GatewayRequest extends IncomingMessage {
  /** The client's address, proxies on loopback trusted (set by the server glue). */
  ip?: string;
  /** A JSON body the depth check read; forwarded as these bytes. */
  bufferedBody?: Buffer;
  /** Set once the bearer token has been verified. */
  userId?: string;
  /** The verified token's session version (`ver`, 0 when absent). */
  sessionVersion?: number;
}

/**
 * HS256 only, and the token must carry `exp` and `sub`: jsonwebtoken checks an expiry only
 * when there is one, so a token minted without it would otherwise never expire.
 */
export function verifyAccessToken(jwt: JwtService, token: string): JwtClaims {
  return assertAccessClaims(jwt.verify<JwtClaims>(token, { algorithms: ['HS256'] }));
}

/** The claims of a token that is valid and not revoked, or undefined. */
async function currentClaims(tokens: AccessTokenVerifier, sessions: SessionCutoffs, token: string): Promise<JwtClaims | undefined> {
  let claims: JwtClaims;
  try {
    claims = tokens.verify(token);
  } catch {
    return undefined;
  }
  return (await sessions.isCurrent(claims.sub, claims.ver ?? 0, token)) ? claims : undefined;
}

/**
 * Verifies the bearer token (HS256 pinned, expiry enforced, not revoked by a logout or a
 * password change) before a protected route is proxied. The same rules as verifyAccessToken,
 * with the verified-token cache of AccessTokenVerifier.
 */
export function createTokenCheck(tokens: AccessTokenVerifier, sessions: SessionCutoffs): Step<GatewayRequest> {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    const isPublic = isPublicRoute(req.method ?? 'GET', req.url ?? '/');
    if (token) {
      const claims = await currentClaims(tokens, sessions, token);
      // a shared link's read with a token is a member's: one that no longer stands is refused, not read as a visitor's
      if (!claims && (!isPublic || isVisitorRead(req.method ?? 'GET', req.url ?? '/'))) return sendEnvelopeError(res, 401, 'Invalid or expired token', {}, 'INVALID_TOKEN');
      if (claims) {
        req.userId = claims.sub;
        req.sessionVersion = claims.ver ?? 0;
      }
    }
    if (!req.userId && !isPublic) return sendEnvelopeError(res, 401, 'Authentication required');
    next();
  };
}

/** Logout, password change and account deletion end the member's older sessions. */
function endsSessions(req: GatewayRequest): boolean {
  const path = routePath(req.url ?? '/');
  return (
    (req.method === 'POST' && path === '/api/auth/logout') ||
    (req.method === 'PUT' && path === '/api/auth/password') ||
    (req.method === 'DELETE' && path === '/api/users/me')
  );
}

/**
 * For a logout, password change or account deletion: once auth answers 2xx, the member's cut-off is raised past
 * the token used before the reply goes out, so that token fails on the very next request on
 * every gateway sharing the cache (the event follows for the others and for sockets).
 */
export function sessionEndGate(req: GatewayRequest, sessions: SessionCutoffs): ((status: number) => Promise<void>) | undefined {
  const { userId, sessionVersion } = req;
  if (!userId || sessionVersion === undefined || !endsSessions(req)) return undefined;
  return (status) => (status >= 200 && status < 300 ? sessions.raise(userId, sessionVersion + 1) : Promise.resolve());
}
