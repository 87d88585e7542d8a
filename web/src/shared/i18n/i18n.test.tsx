import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { Trans, applyLanguage, currentLanguage, translate } from './index';
import { tr } from './tr';
import { en } from './en';
import type { TextKey } from './translate';
import { feedAgo, longDate } from '../format';
import { browserLanguage, initialLanguage } from '../../core/stored-session';

const entries = (o: object, prefix = ''): Array<[string, string]> =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : entries(v as object, `${prefix}${k}.`)));
const keys = (o: object) => entries(o).map(([k]) => k);

/** Letters only Turkish writes: a text with one of them is no English text. */
const TURKISH_LETTERS = /[çğıöşüÇĞİÖŞÜ]/;

describe('two languages, English the default', () => {
  afterEach(() => applyLanguage('en'));

  it('gives both languages the same keys, none empty', () => {
    expect(keys(tr).sort()).toEqual(keys(en).sort());
    expect(keys(en).filter((k) => !translate(k as TextKey, { lng: 'en' }) || !translate(k as TextKey, { lng: 'tr' }))).toEqual([]);
  });

  it('keeps English wholly English: no English text has a Turkish letter', () => {
    // language names are written in their own language (the switch names Türkçe in Turkish)
    expect(entries(en).filter(([k, v]) => TURKISH_LETTERS.test(v) && k !== 'language.tr')).toEqual([]);
  });

  it('starts in English and switches to Turkish, remembering the choice', async () => {
    expect(currentLanguage()).toBe('en');
    expect(translate('feed.tabAll')).toBe('All Posts');
    expect(translate('nav.home')).toBe('Home');
    await applyLanguage('tr');
    expect(translate('feed.tabAll')).toBe('Tüm Paylaşımlar');
    expect(translate('nav.home')).toBe('Ana Sayfa');
    expect(translate('composer.post')).toBe('İncelemeyi Paylaş');
    expect(document.documentElement.lang).toBe('tr');
    expect(localStorage.getItem('language')).toBe('tr');
  });

  it('formats dates in the language: English by default, Turkish after the switch', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(feedAgo(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(feedAgo(now - 10_000, now)).toBe('just now');
    expect(longDate('2026-11-21T12:00:00Z')).toBe('November 21, 2026');
    await applyLanguage('tr');
    expect(feedAgo(now - 5 * 60_000, now)).toBe('5 dakika önce');
    expect(feedAgo(now - 10_000, now)).toBe('az önce');
    expect(longDate('2026-11-21T12:00:00Z')).toBe('21 Kasım 2026');
  });
});

describe("a visitor's first language", () => {
  const withLanguages = (languages: string[], check: () => void) => {
    const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => languages });
    try {
      check();
    } finally {
      delete (navigator as unknown as Record<string, unknown>).languages;
      if (original) Object.defineProperty(Navigator.prototype, 'languages', original);
    }
  };
  afterEach(() => localStorage.removeItem('language'));

  it('is Turkish for any Turkish tag of the browser, English for anything else', () => {
    withLanguages(['tr-TR', 'en'], () => expect(browserLanguage()).toBe('tr'));
    withLanguages(['de-DE', 'tr'], () => expect(browserLanguage()).toBe('tr'));
    withLanguages(['en-US', 'de'], () => expect(browserLanguage()).toBe('en'));
    withLanguages(['trk'], () => expect(browserLanguage()).toBe('en'));
    withLanguages([], () => expect(['en', 'tr']).toContain(browserLanguage()));
  });

  it('gives way to a choice made on the landing page or in Settings', () => {
    localStorage.removeItem('language');
    withLanguages(['tr-TR'], () => {
      expect(initialLanguage()).toBe('tr');
      localStorage.setItem('language', 'en');
      expect(initialLanguage()).toBe('en');
    });
  });
});

describe('the texts’ lookup', () => {
  afterEach(() => {
    cleanup();
    return applyLanguage('en');
  });

  it('fills in values, picks the plural form by count, and gives the key of a missing text', () => {
    expect(translate('lists.items', { count: 1 })).toBe('1 product');
    expect(translate('lists.items', { count: 3 })).toBe('3 products');
    expect(translate('search.none', { q: 'kahve', lng: 'tr' })).toBe('"kahve" için sonuç yok');
    expect(translate('search.none', { lng: 'tr' })).toBe('"" için sonuç yok');
    // a key the types refuse, as a text missing from a language would be at run time
    expect(translate('no.such.text' as TextKey)).toBe('no.such.text');
  });

  it('draws a text with markup as the elements it names, and again in a new language', () => {
    const { container } = render(<Trans i18nKey="notFound.nothingAt" values={{ path: '/nowhere' }} components={{ code: <code /> }} />);
    expect(container.innerHTML).toBe('There is nothing at <code>/nowhere</code>.');
    act(() => void applyLanguage('tr'));
    expect(container.querySelector('code')?.textContent).toBe('/nowhere');
    expect(container.textContent).toContain('adresinde');
  });
});
