import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyTheme, DARK_KEY, storedDarkMode } from './stored-session';

/** The entry applies the stored theme before the app's code loads (main.tsx): what it reads and sets. */
describe('the theme before the app starts', () => {
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('is the stored one, else the system’s', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' }));
    expect(storedDarkMode()).toBe(true);
    localStorage.setItem(DARK_KEY, 'false');
    expect(storedDarkMode()).toBe(false);
    localStorage.setItem(DARK_KEY, 'true');
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    expect(storedDarkMode()).toBe(true);
  });

  it('goes onto <html> as one class of the two', () => {
    applyTheme(true);
    expect([...document.documentElement.classList]).toEqual(expect.arrayContaining(['dark']));
    expect(document.documentElement.classList.contains('light')).toBe(false);
    applyTheme(false);
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(document.documentElement.classList.contains('light')).toBe(true);
  });
});
