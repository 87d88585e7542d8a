import { afterEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { applyLanguage, currentLanguage } from './index';
import { tr } from './tr';
import { en } from './en';
import { feedAgo, longDate, shortAgo } from '../format';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));

describe('two languages', () => {
  afterEach(() => applyLanguage('tr'));

  it('gives English every key of the default, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(tr).sort());
    expect(keys(en).filter((k) => !i18next.t(k as never, { lng: 'en' }))).toEqual([]);
  });

  it("keeps the spec's texts in the default and translates them in English", () => {
    expect(currentLanguage()).toBe('tr');
    expect(i18next.t('feed.tabAll')).toBe('Tüm Paylaşımlar');
    expect(i18next.t('profile.followers')).toBe('Takipçi');
    applyLanguage('en');
    expect(i18next.t('feed.tabAll')).toBe('All Posts');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('language')).toBe('en');
  });

  it('formats dates in the language: Turkish by default, English after the switch', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(feedAgo(now - 5 * 60_000, now)).toBe('5 dakika önce');
    expect(longDate('2026-11-21T12:00:00Z')).toBe('21 Kasım 2026');
    applyLanguage('en');
    expect(feedAgo(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(feedAgo(now - 10_000, now)).toBe('just now');
    expect(longDate('2026-11-21T12:00:00Z')).toBe('November 21, 2026');
    // the spec's English short forms stay as they are
    expect(shortAgo(now - 5 * 60_000, now)).toBe('5m ago');
  });
});
