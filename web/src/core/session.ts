import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AuthUser } from '@app/contracts';

/** Storage keys fixed by the spec (part 1 §3, §9). */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
export const DARK_KEY = 'darkMode';

/** Reads the `exp` claim of a JWT; true when it has passed (or the token is unreadable). */
export function tokenExpired(token: string | null, now: number = Date.now()): boolean {
  if (!token) return true;
  try {
    const part = token.split('.')[1];
    if (!part) return true;
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const claims = JSON.parse(json) as { exp?: number };
    if (typeof claims.exp !== 'number') return false;
    return claims.exp * 1000 <= now;
  } catch {
    return true;
  }
}

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function initialDark(): boolean {
  const stored = readStorage(DARK_KEY);
  if (stored !== null) return stored === 'true';
  try {
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  } catch {
    return false;
  }
}

export interface SessionState {
  token: string | null;
  user: AuthUser | null;
  /** on while login, register or the start-up check runs (part 1 §4) */
  loading: boolean;
  darkMode: boolean;
}

export function loadSession(): SessionState {
  let token = readStorage(TOKEN_KEY);
  let user: AuthUser | null = null;
  try {
    user = JSON.parse(readStorage(USER_KEY) ?? 'null') as AuthUser | null;
  } catch {
    user = null;
  }
  if (!token || tokenExpired(token) || !user) {
    token = null;
    user = null;
    try {
      localStorage.removeItem(TOKEN_KEY);
      localStorage.removeItem(USER_KEY);
    } catch {
      /* storage unavailable */
    }
  }
  return { token, user, loading: !!token, darkMode: initialDark() };
}

const sessionSlice = createSlice({
  name: 'session',
  initialState: loadSession,
  reducers: {
    signedIn(state, action: PayloadAction<{ token: string; user: AuthUser }>) {
      state.token = action.payload.token;
      state.user = action.payload.user;
      state.loading = false;
    },
    userLoaded(state, action: PayloadAction<AuthUser>) {
      state.user = { ...state.user, ...action.payload };
      state.loading = false;
    },
    /** The server changed the member's site role (a socket push): the menu follows at once. */
    roleChanged(state, action: PayloadAction<AuthUser['role']>) {
      if (state.user) state.user.role = action.payload;
    },
    checkDone(state) {
      state.loading = false;
    },
    signedOut(state) {
      state.token = null;
      state.user = null;
      state.loading = false;
    },
    setDarkMode(state, action: PayloadAction<boolean>) {
      state.darkMode = action.payload;
    },
  },
});

export const { signedIn, userLoaded, roleChanged, checkDone, signedOut, setDarkMode } = sessionSlice.actions;
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
  const root = document.documentElement;
  root.classList.toggle('dark', state.darkMode);
  root.classList.toggle('light', !state.darkMode);
}
