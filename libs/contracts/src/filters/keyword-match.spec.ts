import { firstMatchingFilter, foldText, isFilterActive, matchesPhrase } from './keyword-match';

describe('keyword filter matching', () => {
  it('folds Turkish letters and case', () => {
    expect(foldText('İSTANBUL ılık Şeker ÇİĞ Gözlük Ünlü')).toBe('istanbul ilik seker cig gozluk unlu');
  });

  it.each([
    ['Çok ŞEKERLİ bir tatlı', 'şekerli'],
    ['cok sekerli bir tatli', 'ŞEKERLİ'],
    ['Istanbul trafiği', 'istanbul'],
    ['ıspanak yemeği', 'ISPANAK'],
    ['Café crème', 'cafe creme'],
    ['spoiler:   the  end', 'spoiler: the end'],
  ])('%s contains %s', (text, phrase) => {
    expect(matchesPhrase(text, phrase)).toBe(true);
  });

  it('matches whole words only when asked', () => {
    expect(matchesPhrase('Scunthorpe United', 'thorp')).toBe(true);
    expect(matchesPhrase('Scunthorpe United', 'thorp', true)).toBe(false);
    expect(matchesPhrase('Bu kitap, harika!', 'KİTAP', true)).toBe(true);
    expect(matchesPhrase('kitaplar', 'kitap', true)).toBe(false);
    expect(matchesPhrase('a (b) c', '(b)', true)).toBe(true);
  });

  it('never matches an empty phrase', () => {
    expect(matchesPhrase('anything', '   ')).toBe(false);
  });

  it('stops applying a filter once it expired', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(isFilterActive({ expires_at: null }, now)).toBe(true);
    expect(isFilterActive({ expires_at: '2026-01-01T12:00:01Z' }, now)).toBe(true);
    expect(isFilterActive({ expires_at: '2026-01-01T12:00:00Z' }, now)).toBe(false);
    const rules = [
      { phrase: 'old', whole_word: false, expires_at: '2025-01-01T00:00:00Z' },
      { phrase: 'new', whole_word: false, expires_at: null },
    ];
    expect(firstMatchingFilter('old news', rules, now)?.phrase).toBe('new');
    expect(firstMatchingFilter('old stuff', rules, now)).toBeUndefined();
  });
});
