import { parseTags, splitTags, tagKey, TAG_PATTERN } from './hashtags';

describe('hashtags', () => {
  it('reads #words of letters, digits and underscores, Turkish letters included', () => {
    expect(parseTags('Sabah #kahve, öğlen #çay_2 ve #Şeker! #İstanbul')).toEqual(['kahve', 'çay_2', 'şeker', 'istanbul']);
  });

  it('lower-cases the Turkish way, so one tag has one stored form', () => {
    expect(tagKey('KAHVE')).toBe('kahve');
    expect(tagKey('IĞDIR')).toBe('ığdır');
    expect(tagKey('İzmir')).toBe('izmir');
    expect(parseTags('#Kahve #KAHVE #kahve')).toEqual(['kahve']);
  });

  it('ignores a # inside a word, an entity, a bare # and words over 50 characters', () => {
    expect(parseTags(`a#b &#39; # x ## #${'a'.repeat(51)}`)).toEqual([]);
    expect(parseTags(`#${'a'.repeat(50)}`)).toEqual(['a'.repeat(50)]);
  });

  it('splits a text into plain runs and tags that rebuild it exactly', () => {
    const text = 'İyi #Kahve.\n#çay';
    const parts = splitTags(text);
    expect(parts).toEqual([
      { text: 'İyi ' },
      { text: '#Kahve', name: 'Kahve', key: 'kahve' },
      { text: '.\n' },
      { text: '#çay', name: 'çay', key: 'çay' },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(text);
  });

  it('accepts a route tag only as letters, digits and underscores', () => {
    expect(TAG_PATTERN.test('Kahve_2')).toBe(true);
    expect(TAG_PATTERN.test('ığdır')).toBe(true);
    for (const bad of ['', 'a b', 'a-b', '#a', 'a'.repeat(51), '../x']) expect(TAG_PATTERN.test(bad)).toBe(false);
  });
});
