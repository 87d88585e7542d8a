import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, UnauthorizedException, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { CodedException } from '../http/coded.exception';
import { ACCESS_TOKENS } from '../platform.tokens';
import { MemberStanding } from '../read-models/member-standing.service';
import { AccessTokenVerifier } from './access-token';
import { AuthenticatedUser } from './current-user.decorator';
import { IS_PUBLIC, Public } from './public.decorator';

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

/** Why a verified token no longer stands here, from the service's own read model (no store query). */
function refusal(user: AuthenticatedUser, standing: MemberStanding): CodedException | undefined {
  if (standing.isDeleted(user.id)) return new CodedException('ACCOUNT_GONE', 'Account no longer exists');
  // Revoked by a logout, password change or suspension: every service refuses it, not only the gateway.
  if ((user.sessionVersion ?? 0) < standing.sessionVersion(user.id)) return new CodedException('INVALID_TOKEN', 'Invalid or expired token');
  // Suspended: refused as auth's revocation will refuse it, before that revocation has come round.
  if (standing.isSuspended(user.id)) return new CodedException('INVALID_TOKEN', 'Invalid or expired token');
  return undefined;
}

/** The member with the site role auth last announced: a promotion or demotion applies on the next request. */
function current(user: AuthenticatedUser, standing: MemberStanding): AuthenticatedUser {
  const role = standing.roleOf(user.id);
  return role ? { ...user, role } : user;
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
    private readonly standing: MemberStanding,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    // Bus handlers (the microservice side of the app) carry no token: the bus is internal.
    if (isPublic || context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedUser }>();
    const user = userOf(req, this.tokens);
    if (!user) throw new UnauthorizedException('Authentication required');
    const refused = refusal(user, this.standing);
    if (refused) throw refused;
    req.user = current(user, this.standing);
    return true;
  }
}

/**
 * For @Public() routes that still read the viewer (shared products, reviews, profiles): no token is a
 * visitor; a token sent must stand as on any route (expired, revoked by a logout or a suspension,
 * an account gone: 401), so a tab that thinks it is signed in learns it is not on its next read.
 */
@Injectable()
export class OptionalJwtAuthGuard implements CanActivate {
  constructor(
    @Inject(ACCESS_TOKENS) private readonly tokens: AccessTokenVerifier,
    private readonly standing: MemberStanding,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthenticatedUser }>();
    if (bearerToken(req) === undefined) return true;
    const user = userOf(req, this.tokens);
    if (!user) throw new UnauthorizedException('Invalid or expired token');
    const refused = refusal(user, this.standing);
    if (refused) throw refused;
    req.user = current(user, this.standing);
    return true;
  }
}

/**
 * A read a visitor may make too (issue 43 §3: shared products, reviews and public profiles): no
 * token needed, the viewer read when one is sent (and refused when it no longer stands). The
 * handler gets `user` undefined for a visitor and answers for public content only.
 */
export const OpenToVisitors = () => applyDecorators(Public(), UseGuards(OptionalJwtAuthGuard));
