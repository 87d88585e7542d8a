import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { Trans, applyLanguage, currentLanguage, translate } from './index';
import { tr } from './tr';
import { en } from './en';
import type { TextKey } from './translate';
import { feedAgo, longDate, shortAgo } from '../format';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));

describe('two languages', () => {
  afterEach(() => applyLanguage('tr'));

  it('gives English every key of the default, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(tr).sort());
    expect(keys(en).filter((k) => !translate(k as TextKey, { lng: 'en' }))).toEqual([]);
  });

  it("keeps the spec's texts in the default and translates them in English", () => {
    expect(currentLanguage()).toBe('tr');
    expect(translate('feed.tabAll')).toBe('Tüm Paylaşımlar');
    expect(translate('profile.followers')).toBe('Takipçi');
    applyLanguage('en');
    expect(translate('feed.tabAll')).toBe('All Posts');
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

describe('the texts’ lookup', () => {
  afterEach(() => {
    cleanup();
    return applyLanguage('tr');
  });

  it('fills in values, picks the plural form by count, and gives the key of a missing text', () => {
    expect(translate('lists.items', { count: 1, lng: 'en' })).toBe('1 product');
    expect(translate('lists.items', { count: 3, lng: 'en' })).toBe('3 products');
    expect(translate('search.none', { q: 'kahve' })).toBe('"kahve" için sonuç yok');
    expect(translate('search.none')).toBe('"" için sonuç yok');
    // a key the types refuse, as a text missing from a language would be at run time
    expect(translate('no.such.text' as TextKey)).toBe('no.such.text');
  });

  it('draws a text with markup as the elements it names, and again in a new language', () => {
    const { container } = render(<Trans i18nKey="notFound.nothingAt" values={{ path: '/nowhere' }} components={{ code: <code /> }} />);
    expect(container.innerHTML).toBe('<code>/nowhere</code> adresinde bir şey yok.');
    act(() => void applyLanguage('en'));
    expect(container.querySelector('code')?.textContent).toBe('/nowhere');
    expect(container.textContent).not.toContain('adresinde');
  });
});
