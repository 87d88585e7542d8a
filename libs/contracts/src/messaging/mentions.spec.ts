import { splitMentions } from './mentions';

describe('splitMentions', () => {
  it('cuts @handles out of the text, lower-cased, keeping every character of it', () => {
    const parts = splitMentions('@Ayse bak, @burak_k: çok iyi');
    expect(parts).toEqual([
      { text: '@Ayse', username: 'ayse' },
      { text: ' bak, ' },
      { text: '@burak_k', username: 'burak_k' },
      { text: ': çok iyi' },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe('@Ayse bak, @burak_k: çok iyi');
  });

  it('leaves emails, too short handles and @ inside words as text', () => {
    for (const text of ['mail me at x@ela.com', '@ab hi', 'a@burak', 'just text']) {
      expect(splitMentions(text).some((p) => p.username)).toBe(false);
    }
  });
});
