import { afterEach, describe, expect, it } from 'vitest';
import {
  bellBadge,
  conversationName,
  conversationTime,
  cutText,
  extraCount,
  memberLabel,
  messageTime,
  panelBadge,
  personName,
  price,
  productSlug,
  shortAgo,
  squadTime,
  feedAgo,
  longDate,
  monthYear,
  shortDate,
} from './format';
import { initials, initialsColour } from './avatar';
import { applyLanguage } from './i18n';

const NOW = new Date(2025, 5, 18, 15, 30, 0).getTime(); // Wed 18 June 2025 15:30 local
const ago = (ms: number) => new Date(NOW - ms);
const M = 60_000;
const H = 60 * M;
const D = 24 * H;

describe('badges', () => {
  it('bell badge caps at 99+', () => {
    expect(bellBadge(0)).toBe('0');
    expect(bellBadge(99)).toBe('99');
    expect(bellBadge(100)).toBe('99+');
  });
  it('panel badge caps at 9+', () => {
    expect(panelBadge(9)).toBe('9');
    expect(panelBadge(10)).toBe('9+');
    expect(panelBadge(-1)).toBe('0');
  });
});

describe('150-character cut', () => {
  it('keeps short text and cuts long text with ...', () => {
    expect(cutText('a'.repeat(150))).toBe('a'.repeat(150));
    expect(cutText('a'.repeat(151))).toBe('a'.repeat(150) + '...');
    expect(cutText('')).toBe('');
  });
});

/** Runs `check` with the interface in Turkish (English, the default, is restored after each test). */
async function inTurkish(check: () => void) {
  await applyLanguage('tr');
  check();
}

describe('relative times', () => {
  afterEach(() => applyLanguage('en'));
  it('s, m, h, d ago; sn, dk, sa, g önce in Turkish', async () => {
    expect(shortAgo(ago(5_000), NOW)).toBe('5s ago');
    expect(shortAgo(ago(3 * M), NOW)).toBe('3m ago');
    expect(shortAgo(ago(2 * H), NOW)).toBe('2h ago');
    expect(shortAgo(ago(4 * D), NOW)).toBe('4d ago');
    await inTurkish(() => {
      expect(shortAgo(ago(5_000), NOW)).toBe('5 sn önce');
      expect(shortAgo(ago(3 * M), NOW)).toBe('3 dk önce');
      expect(shortAgo(ago(4 * D), NOW)).toBe('4 g önce');
    });
  });
  it("English feed times are written as Intl.RelativeTimeFormat writes them, without loading its data", () => {
    const rtf = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
    const units = [
      ['minute', M, 59],
      ['hour', H, 23],
      ['day', D, 6],
      ['week', 7 * D, 4],
    ] as const;
    for (const [unit, size, most] of units) {
      for (let n = 1; n <= most; n++) expect(feedAgo(ago(n * size + 1), NOW)).toBe(rtf.format(-n, unit));
    }
  });
  it('feed times in English, and in Turkish', async () => {
    expect(feedAgo(ago(10_000), NOW)).toBe('just now');
    expect(feedAgo(ago(5 * M), NOW)).toBe('5 minutes ago');
    expect(feedAgo(ago(2 * D), NOW)).toBe('2 days ago');
    await applyLanguage('tr');
    expect(feedAgo(ago(10_000), NOW)).toBe('az önce');
    expect(feedAgo(ago(5 * M), NOW)).toBe('5 dakika önce');
    expect(feedAgo(ago(3 * H), NOW)).toBe('3 saat önce');
    expect(feedAgo(ago(2 * D), NOW)).toBe('2 gün önce');
    expect(feedAgo(ago(14 * D), NOW)).toBe('2 hafta önce');
    expect(feedAgo(ago(60 * D), NOW)).toMatch(/2025/);
  });
  it('message times: Now, Nm, Nh, Nd, date', async () => {
    expect(messageTime(ago(20_000), NOW)).toBe('Now');
    expect(messageTime(ago(7 * M), NOW)).toBe('7m');
    expect(messageTime(ago(5 * H), NOW)).toBe('5h');
    expect(messageTime(ago(6 * D), NOW)).toBe('6d');
    expect(messageTime(ago(8 * D), NOW)).toBe('Jun 10');
    await inTurkish(() => {
      expect(messageTime(ago(20_000), NOW)).toBe('Şimdi');
      expect(messageTime(ago(7 * M), NOW)).toBe('7 dk');
      expect(messageTime(ago(8 * D), NOW)).toBe('10 Haz');
    });
  });
  it('squad times: Today, Yesterday, days, weeks, date', async () => {
    const now = new Date(NOW);
    expect(squadTime(ago(2 * H), now)).toBe('Today');
    expect(squadTime(ago(1 * D), now)).toBe('Yesterday');
    expect(squadTime(ago(3 * D), now)).toBe('3 days ago');
    expect(squadTime(ago(7 * D), now)).toBe('1 week ago');
    expect(squadTime(ago(20 * D), now)).toBe('2 weeks ago');
    expect(squadTime(ago(40 * D), now)).toBe('May 9, 2025');
    await inTurkish(() => {
      expect(squadTime(ago(2 * H), now)).toBe('Bugün');
      expect(squadTime(ago(3 * D), now)).toBe('3 gün önce');
      expect(squadTime(ago(7 * D), now)).toBe('1 hafta önce');
      expect(squadTime(ago(40 * D), now)).toBe('9 May 2025');
    });
  });
  it('conversation times: clock today, Yesterday, weekday, month day', async () => {
    const now = new Date(NOW);
    expect(conversationTime(new Date(2025, 5, 18, 9, 5), now)).toBe('9:05 AM');
    expect(conversationTime(new Date(2025, 5, 17, 22, 0), now)).toBe('Yesterday');
    expect(conversationTime(new Date(2025, 5, 14, 12, 0), now)).toBe('Saturday');
    expect(conversationTime(new Date(2025, 4, 2, 12, 0), now)).toBe('May 2');
    await inTurkish(() => {
      expect(conversationTime(new Date(2025, 5, 18, 9, 5), now)).toBe('09:05');
      expect(conversationTime(new Date(2025, 5, 17, 22, 0), now)).toBe('Dün');
      expect(conversationTime(new Date(2025, 5, 14, 12, 0), now)).toBe('Cumartesi');
      expect(conversationTime(new Date(2025, 4, 2, 12, 0), now)).toBe('2 May');
    });
  });
});

describe('a deleted member', () => {
  afterEach(() => applyLanguage('en'));
  it('is named in the interface language, while a member who chose that name keeps it', async () => {
    expect(personName({ display_name: 'Deleted member', username: '' })).toBe('Deleted member');
    await applyLanguage('tr');
    expect(personName({ display_name: 'Deleted member', username: '' })).toBe('Silinmiş üye');
    expect(personName({ display_name: 'Deleted member', username: 'prankster' })).toBe('Deleted member');
  });
});

describe('group conversation names', () => {
  it('one or two members by name, more as first 2 + N others', () => {
    expect(conversationName([{ display_name: 'Ada' }])).toBe('Ada');
    expect(conversationName([{ display_name: 'Ada' }, { username: 'bob' }])).toBe('Ada, bob');
    expect(conversationName([{ display_name: 'Ada' }, { display_name: 'Bob' }, { display_name: 'Cem' }, { display_name: 'Deniz' }])).toBe(
      'Ada, Bob +2 others',
    );
    expect(conversationName([])).toBe('Conversation');
    expect(conversationName([{ display_name: 'Ada' }], 'Keyboard Squad')).toBe('Keyboard Squad');
  });
});

describe('small rules', () => {
  it('squad card extra count, member label, price, slug', () => {
    expect(extraCount(3)).toBeNull();
    expect(extraCount(7)).toBe('+4');
    expect(memberLabel(1)).toBe('1 member');
    expect(memberLabel(2)).toBe('2 members');
    expect(price(149.9)).toBe('$149.90');
    expect(productSlug({ name: 'Wireless Ear Buds' })).toBe('wireless-ear-buds');
    expect(productSlug({ name: 'X', slug: 'x-1' })).toBe('x-1');
  });
  it('initials avatar: two initials on a colour that stays with the name', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('')).toBe('?');
    expect(initialsColour('Ada Lovelace')).toMatch(/^#[0-9a-f]{6}$/);
    expect(initialsColour('Ada Lovelace')).toBe(initialsColour('Ada Lovelace'));
  });
});

describe('date formats', () => {
  const day = new Date(2025, 5, 18, 12, 0, 0);
  afterEach(() => applyLanguage('en'));
  it("long form: 'Joined June 18, 2025' in English, 'Katılma: 18 Haziran 2025' in Turkish", async () => {
    expect(longDate(day)).toBe('June 18, 2025');
    expect(monthYear(day)).toBe('Jun 2025');
    await inTurkish(() => {
      expect(longDate(day)).toBe('18 Haziran 2025');
      expect(monthYear(day)).toBe('Haz 2025');
    });
  });
  it('writes every date as toLocaleDateString does in tr-TR and en-US, in both languages', async () => {
    await applyLanguage('tr');
    const tr = { day: 'numeric', month: 'long', year: 'numeric' } as const;
    for (let month = 0; month < 12; month++)
      for (const date of [1, 9, 28]) {
        const d = new Date(2026, month, date, 23, 30);
        expect(longDate(d)).toBe(d.toLocaleDateString('tr-TR', tr));
        expect(shortDate(d)).toBe(d.toLocaleDateString('tr-TR'));
        await applyLanguage('en');
        expect(longDate(d)).toBe(d.toLocaleDateString('en-US', tr));
        expect(shortDate(d)).toBe(d.toLocaleDateString('en-US'));
        expect(monthYear(d)).toBe(d.toLocaleDateString('en-US', { month: 'short', year: 'numeric' }));
        await applyLanguage('tr');
      }
    expect(longDate('not a date')).toBe(new Date('not a date').toLocaleDateString('tr-TR', tr));
    expect(shortDate('not a date')).toBe('Invalid Date');
  });
});
