import { USERNAME_MAX, USERNAME_MIN, usernameBase, usernameCandidate } from './username';

describe('usernameBase', () => {
  it('transliterates Turkish letters and joins words with underscores', () => {
    expect(usernameBase('Ayşe Yılmaz')).toBe('ayse_yilmaz');
    expect(usernameBase('Çağrı Öztürk')).toBe('cagri_ozturk');
  });

  it('drops symbols and trims separators', () => {
    expect(usernameBase('  --John   O\'Brien!! ')).toBe('john_o_brien');
  });

  it('pads names that are too short and cuts long ones', () => {
    expect(usernameBase('A').length).toBeGreaterThanOrEqual(USERNAME_MIN);
    expect(usernameBase('!!!')).toMatch(/^user/);
    expect(usernameBase('x'.repeat(100)).length).toBeLessThanOrEqual(USERNAME_MAX);
  });

  it('numbers later candidates', () => {
    expect(usernameCandidate('ali', 0)).toBe('ali');
    expect(usernameCandidate('ali', 1)).toBe('ali2');
    expect(usernameCandidate('ali', 9)).toMatch(/^ali\d{4}$/);
  });
});
