import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AuthUser } from '@app/contracts';
import { applyTheme, DARK_KEY, TOKEN_KEY, USER_KEY, storedDarkMode, storedSession } from './stored-session';

export { DARK_KEY, TOKEN_KEY, USER_KEY, tokenExpired } from './stored-session';

export interface SessionState {
  token: string | null;
  user: AuthUser | null;
  darkMode: boolean;
}

/**
 * The stored session. A stored token with its user opens the routes at once: `/auth/me` runs in the
 * background (main.tsx) and a 401 or 404 from it, or a 401 from any call, ends the session then.
 */
export function loadSession(): SessionState {
  const { token, user } = storedSession<AuthUser>();
  return { token, user, darkMode: storedDarkMode() };
}

const sessionSlice = createSlice({
  name: 'session',
  initialState: loadSession,
  reducers: {
    signedIn(state, action: PayloadAction<{ token: string; user: AuthUser }>) {
      state.token = action.payload.token;
      state.user = action.payload.user;
    },
    /** Unchanged when the reply matches the stored user (the usual case at start): nothing that reads the session draws again. */
    userLoaded(state, action: PayloadAction<AuthUser>) {
      const user = state.user;
      const fields = Object.entries(action.payload) as Array<[keyof AuthUser, unknown]>;
      if (!user || fields.some(([key, value]) => user[key] !== value)) state.user = { ...user, ...action.payload };
    },
    /** The server changed the member's site role (a socket push): the menu follows at once. */
    roleChanged(state, action: PayloadAction<AuthUser['role']>) {
      if (state.user) state.user.role = action.payload;
    },
    signedOut(state) {
      state.token = null;
      state.user = null;
    },
    setDarkMode(state, action: PayloadAction<boolean>) {
      state.darkMode = action.payload;
    },
  },
});

export const { signedIn, userLoaded, roleChanged, signedOut, setDarkMode } = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;

/** Mirrors the session into storage and the theme onto <html> after every change. */
export function persistSession(state: SessionState): void {
  try {
    if (state.token && state.user) {
      localStorage.setItem(TOKEN_KEY, state.token);
      localStorage.setItem(USER_KEY, JSON.stringify(state.user));
    } else {
      localStorage.removeItem(TOKEN_KEY);
      localStorage.removeItem(USER_KEY);
    }
    localStorage.setItem(DARK_KEY, String(state.darkMode));
  } catch {
    /* storage unavailable */
  }
  applyTheme(state.darkMode);
}
