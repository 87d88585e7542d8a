import type { NextFunction, Request, Response } from 'express';
import { JwtService } from '@nestjs/jwt';
import { JwtClaims } from '@app/contracts';
import { AccessTokenVerifier, assertAccessClaims } from '@app/platform';
import { isPublicRoute } from '../proxy/routes';
import { sendEnvelopeError } from '../proxy/envelope-reply';

export interface GatewayRequest extends Request {
  /** Set once the bearer token has been verified. */
  userId?: string;
}

/**
 * HS256 only, and the token must carry `exp` and `sub`: jsonwebtoken checks an expiry only
 * when there is one, so a token minted without it would otherwise never expire.
 */
export function verifyAccessToken(jwt: JwtService, token: string): JwtClaims {
  return assertAccessClaims(jwt.verify<JwtClaims>(token, { algorithms: ['HS256'] }));
}

/**
 * Verifies the bearer token (HS256 pinned, expiry enforced) before a protected route is proxied.
 * The same rules as verifyAccessToken, with the verified-token cache of AccessTokenVerifier.
 */
export function createTokenCheck(tokens: AccessTokenVerifier) {
  return (req: GatewayRequest, res: Response, next: NextFunction): void => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    if (token) {
      try {
        req.userId = tokens.verify(token).sub;
      } catch {
        if (!isPublicRoute(req.method, req.originalUrl)) return sendEnvelopeError(res, 401, 'Invalid or expired token');
      }
    }
    if (!req.userId && !isPublicRoute(req.method, req.originalUrl)) {
      return sendEnvelopeError(res, 401, 'Authentication required');
    }
    next();
  };
}
