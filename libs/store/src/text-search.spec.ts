import { foldText, searchWords } from './text-search';

describe('foldText', () => {
  it('folds Turkish İ, I and ı to i and drops diacritics', () => {
    expect(foldText('İSTANBUL Işık ŞEKER çay Ğ ö ü')).toBe('istanbul isik seker cay g o u');
  });
});

describe('searchWords', () => {
  it('keeps runs of letters and digits, folded', () => {
    expect(searchWords('  Kulaklık, "5G"  -- şarj!')).toEqual(['kulaklik', '5g', 'sarj']);
  });

  it('has no words for punctuation only', () => {
    expect(searchWords('"*-()')).toEqual([]);
  });
});
