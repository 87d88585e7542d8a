import { JwtService } from '@nestjs/jwt';
import { AccessTokenVerifier } from './access-token';

const SECRET = 'a-test-secret-that-is-at-least-32-characters';
const signer = new JwtService({ secret: SECRET });
const sign = (claims: object, expiresIn?: number) => signer.sign(claims, { algorithm: 'HS256', ...(expiresIn !== undefined && { expiresIn }) });

describe('AccessTokenVerifier', () => {
  afterEach(() => jest.useRealTimers());

  it('returns the claims of a valid token, from the cache the second time', () => {
    const tokens = new AccessTokenVerifier(SECRET);
    const token = sign({ sub: 'u1', username: 'ayse' }, 60);
    expect(tokens.verify(token)).toMatchObject({ sub: 'u1', username: 'ayse' });
    expect(tokens.verify(token)).toBe(tokens.verify(token));
  });

  it('refuses a cached token once its exp is reached', () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const tokens = new AccessTokenVerifier(SECRET);
    const token = sign({ sub: 'u1', username: 'ayse' }, 10);
    expect(tokens.verify(token).sub).toBe('u1');
    jest.setSystemTime(new Date('2030-01-01T00:00:10Z'));
    expect(() => tokens.verify(token)).toThrow();
  });

  it('refuses tokens without exp or sub, signed with another secret, or with another algorithm', () => {
    const tokens = new AccessTokenVerifier(SECRET);
    expect(() => tokens.verify(sign({ sub: 'u1', username: 'ayse' }))).toThrow();
    expect(() => tokens.verify(sign({ username: 'ayse' }, 60))).toThrow();
    const other = new JwtService({ secret: 'another-secret-that-is-at-least-32-chars' }).sign({ sub: 'u1' }, { expiresIn: 60 });
    expect(() => tokens.verify(other)).toThrow();
    const hs512 = signer.sign({ sub: 'u1', username: 'ayse' }, { algorithm: 'HS512', expiresIn: 60 });
    expect(() => tokens.verify(hs512)).toThrow();
  });

  it('keeps at most `capacity` tokens, dropping the oldest, and still verifies dropped ones', () => {
    const tokens = new AccessTokenVerifier(SECRET, 2);
    const [a, b, c] = ['a', 'b', 'c'].map((sub) => sign({ sub, username: sub }, 60));
    const first = tokens.verify(a);
    tokens.verify(b);
    tokens.verify(c);
    expect(tokens.verify(c).sub).toBe('c');
    expect(tokens.verify(a)).not.toBe(first);
    expect(tokens.verify(a).sub).toBe('a');
  });
});
