/**
 * The session as localStorage keeps it, read without the store: the entry (main.tsx) reads it before
 * the app's code has loaded, to start the first screen's requests at once.
 */

/** Storage keys fixed by the spec (part 1 §3, §9). */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
export const DARK_KEY = 'darkMode';
/** The interface language this browser last showed or was given (shared/i18n). */
export const LANGUAGE_KEY = 'language';

/** A visitor's first language: Turkish when any of the browser's languages is Turkish, English otherwise. */
export function browserLanguage(): 'tr' | 'en' {
  try {
    const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
    return tags.some((tag) => /^tr(-|$)/i.test(tag ?? '')) ? 'tr' : 'en';
  } catch {
    return 'en';
  }
}

/** The language this browser shows: the one chosen (landing page, Settings, the account at sign-in), else the browser's. */
export function initialLanguage(): 'tr' | 'en' {
  const stored = readStorage(LANGUAGE_KEY);
  return stored === 'tr' || stored === 'en' ? stored : browserLanguage();
}

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

export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The theme this browser last showed, else the system's. */
export function storedDarkMode(): boolean {
  const stored = readStorage(DARK_KEY);
  if (stored !== null) return stored === 'true';
  try {
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  } catch {
    return false;
  }
}

/** The theme onto <html>, whose class the styles key on. */
export function applyTheme(dark: boolean): void {
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.classList.toggle('light', !dark);
}

/** The stored token and user; an expired token, or one without its user, is dropped from storage. */
export function storedSession<U>(): { token: string | null; user: U | null } {
  const token = readStorage(TOKEN_KEY);
  let user: U | null = null;
  try {
    user = JSON.parse(readStorage(USER_KEY) ?? 'null') as U | null;
  } catch {
    user = null;
  }
  if (token && !tokenExpired(token) && user) return { token, user };
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
  } catch {
    /* storage unavailable */
  }
  return { token: null, user: null };
}
