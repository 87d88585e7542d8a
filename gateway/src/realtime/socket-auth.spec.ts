import { JwtService } from '@nestjs/jwt';
import type { Socket } from 'socket.io';
import { socketAuth, tokenFromHandshake } from './socket-auth';
import { allowTyping, TYPING_THROTTLE_MS } from './typing-throttle';

const SECRET = 'unit-test-secret-that-is-at-least-32-characters';

function handshake(parts: { auth?: object; authorization?: string; query?: Record<string, string> }): Socket['handshake'] {
  return {
    auth: parts.auth ?? {},
    headers: parts.authorization ? { authorization: parts.authorization } : {},
    query: parts.query ?? {},
  } as unknown as Socket['handshake'];
}

describe('socket handshake token', () => {
  it('reads auth.token only, never ?token= (access logs) nor a header', () => {
    expect(tokenFromHandshake(handshake({ auth: { token: 'a' }, authorization: 'Bearer b', query: { token: 'c' } }))).toBe('a');
    expect(tokenFromHandshake(handshake({ auth: { token: 'Bearer a' } }))).toBe('a');
    expect(tokenFromHandshake(handshake({ query: { token: 'c' } }))).toBeUndefined();
    expect(tokenFromHandshake(handshake({ authorization: 'Bearer b' }))).toBeUndefined();
    expect(tokenFromHandshake(handshake({ auth: { token: 42 } }))).toBeUndefined();
  });

  it('admits a valid HS256 token and refuses missing, forged, alg:none and revoked tokens', async () => {
    const jwt = new JwtService({ secret: SECRET });
    const good = jwt.sign({ sub: 'u1', username: 'ayse' }, { algorithm: 'HS256', expiresIn: 60 });
    const [, payload] = good.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const forged = new JwtService({ secret: 'another-secret-that-is-at-least-32-characters' }).sign({ sub: 'u1', username: 'x' });
    // Member u1's sessions before version 1 were revoked.
    const sessions = { isCurrent: async (_userId: string, ver: number) => ver >= 1 };
    const current = jwt.sign({ sub: 'u1', username: 'ayse', ver: 1 }, { algorithm: 'HS256', expiresIn: 60 });
    const run = async (token?: string) => {
      const socket = { handshake: handshake({ auth: token ? { token } : {} }), data: {} } as unknown as Socket;
      const error = await new Promise<Error | undefined>((resolve) => socketAuth(jwt, sessions)(socket, resolve));
      return { error: error?.message, data: socket.data };
    };
    expect(await run(current)).toMatchObject({ error: undefined, data: { user: { id: 'u1', username: 'ayse' }, token: current, sessionVersion: 1 } });
    expect((await run()).error).toBe('Authentication required');
    expect((await run(none)).error).toBe('Invalid or expired token');
    expect((await run(forged)).error).toBe('Invalid or expired token');
    expect((await run(good)).error).toBe('Invalid or expired token');
  });
});

describe('typing throttle', () => {
  it('lets one event per key through per window', () => {
    const seen = new Map<string, number>();
    expect(allowTyping(seen, 'user-typing:c1', 1000)).toBe(true);
    expect(allowTyping(seen, 'user-typing:c1', 1000 + TYPING_THROTTLE_MS - 1)).toBe(false);
    expect(allowTyping(seen, 'user-stopped-typing:c1', 1001)).toBe(true);
    expect(allowTyping(seen, 'user-typing:c2', 1001)).toBe(true);
    expect(allowTyping(seen, 'user-typing:c1', 1000 + TYPING_THROTTLE_MS)).toBe(true);
  });
});
