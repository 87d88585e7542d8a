import { describe, expect, it } from 'vitest';
import type { AuthUser } from '@app/contracts';
import { sessionReducer, userLoaded, type SessionState } from './session';

const user: AuthUser = {
  id: 'u1',
  username: 'ayse',
  email: 'ayse@demo.local',
  display_name: 'Ayşe',
  name: 'Ayşe Yılmaz',
  avatar: null,
  created_at: '2026-01-01T00:00:00.000Z',
  role: 'member',
  language: 'en',
};
const signedIn: SessionState = { token: 't', user, darkMode: false };

describe('userLoaded', () => {
  it('keeps the session object when /auth/me answers the stored user (no subscriber draws again)', () => {
    expect(sessionReducer(signedIn, userLoaded({ ...user }))).toBe(signedIn);
  });

  it('takes a changed field', () => {
    const next = sessionReducer(signedIn, userLoaded({ ...user, role: 'moderator' }));
    expect(next.user).toEqual({ ...user, role: 'moderator' });
    expect(signedIn.user?.role).toBe('member');
  });

  it('takes the user when none was stored', () => {
    expect(sessionReducer({ ...signedIn, user: null }, userLoaded(user)).user).toEqual(user);
  });
});
