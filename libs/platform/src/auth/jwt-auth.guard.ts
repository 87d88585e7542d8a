import { CanActivate, ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ACCESS_TOKENS } from '../platform.tokens';
import { AccessTokenVerifier } from './access-token';
import { AuthenticatedUser } from './current-user.decorator';
import { IS_PUBLIC } from './public.decorator';

/** `Authorization: Bearer <token>`, the scheme case-insensitive (as passport-jwt read it). */
function bearerToken(req: FastifyRequest): string | undefined {
  const match = /^\s*(\S+)\s+(\S+)/.exec(req.headers.authorization ?? '');
  return match && match[1].toLowerCase() === 'bearer' ? match[2] : undefined;
}

/** The member the request's token names, or undefined when there is no valid token. */
function userOf(req: FastifyRequest, tokens: AccessTokenVerifier): AuthenticatedUser | undefined {
  const token = bearerToken(req);
  if (!token) return undefined;
  try {
    const claims = tokens.verify(token);
    return { id: claims.sub, username: claims.username, sessionVersion: claims.ver ?? 0, role: claims.role ?? 'member' };
  } catch {
    return undefined;
  }
}

/**
 * Global guard: every route needs a valid token unless marked @Public(). The token is checked
 * in place (HS256 pinned, exp and sub required, see AccessTokenVerifier) rather than through
 * passport, whose per-request strategy set-up showed in the profile.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(ACCESS_TOKENS) private readonly tokens: AccessTokenVerifier,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    // Bus handlers (the microservice side of the app) carry no token: the bus is internal.
    if (isPublic || context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedUser }>();
    const user = userOf(req, this.tokens);
    if (!user) throw new UnauthorizedException('Authentication required');
    req.user = user;
    return true;
  }
}

/** For @Public() routes that still read the viewer when a token is sent (public profiles). */
@Injectable()
export class OptionalJwtAuthGuard implements CanActivate {
  constructor(@Inject(ACCESS_TOKENS) private readonly tokens: AccessTokenVerifier) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedUser }>();
    const user = userOf(req, this.tokens);
    if (user) req.user = user;
    return true;
  }
}
