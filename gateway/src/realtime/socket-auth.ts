import { JwtService } from '@nestjs/jwt';
import type { Socket } from 'socket.io';
import { JwtClaims } from '@app/contracts';
import { AuthenticatedUser } from '@app/platform';
import { SessionCutoffs } from '../access/session-cutoffs';
import { verifyAccessToken } from '../access/token-check';
import { RealtimeSocket } from './socket-types';

/** What the gateway keeps on each authenticated socket. */
export interface SocketSession {
  user: AuthenticatedUser;
  /** Forwarded to the messaging service on behalf of the member. */
  token: string;
  /** The token's session version: a revocation past it disconnects the socket. */
  sessionVersion: number;
  /** Last typing event let through, per `event:conversationId` (throttle). */
  typingAt: Map<string, number>;
}

export type AuthedSocket = RealtimeSocket & { data: SocketSession };

function stripBearer(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  return value.startsWith('Bearer ') ? value.slice(7) : value;
}

/**
 * The token from the handshake's `auth.token` only: a `?token=` lands in access logs and proxy
 * histories, and no client of ours sends a header (issue 45 §8).
 */
export function tokenFromHandshake(handshake: Socket['handshake']): string | undefined {
  const auth = handshake.auth as { token?: unknown } | undefined;
  return stripBearer(auth?.token);
}

/**
 * socket.io middleware: a connection without a valid HS256 token, or with one revoked by a
 * logout or password change, is refused with `connect_error`.
 */
export function socketAuth(jwt: JwtService, sessions: Pick<SessionCutoffs, 'isCurrent'>) {
  return (socket: Socket, next: (err?: Error) => void): void => {
    const token = tokenFromHandshake(socket.handshake);
    if (!token) return next(new Error('Authentication required'));
    let claims: JwtClaims;
    try {
      claims = verifyAccessToken(jwt, token);
    } catch {
      return next(new Error('Invalid or expired token'));
    }
    const sessionVersion = claims.ver ?? 0;
    void sessions.isCurrent(claims.sub, sessionVersion, token).then((current) => {
      if (!current) return next(new Error('Invalid or expired token'));
      const session: SocketSession = { user: { id: claims.sub, username: claims.username }, token, sessionVersion, typingAt: new Map() };
      socket.data = session;
      next();
    });
  };
}
