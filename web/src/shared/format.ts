/**
 * Pure display rules of the spec: badges, cuts, relative times, names, prices. The one formatter for dates
 * and times: every one is written in the interface language (en-US in English, tr-TR in Turkish).
 */
import { currentLanguage } from './i18n/language';
import { translate, type TextKey } from './i18n/translate';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const toDate = (v: string | number | Date): Date => (v instanceof Date ? v : new Date(v));

/** Bell badge: 99+ above 99 (part 1 §2). */
export function bellBadge(count: number): string {
  return count > 99 ? '99+' : String(Math.max(0, count));
}

/** Badge inside the dropdown panel: 9+ above 9 (part 1 §2). */
export function panelBadge(count: number): string {
  return count > 9 ? '9+' : String(Math.max(0, count));
}

/** Profile review text: cut at 150 characters followed by '...' (part 1 §2, §9). */
export function cutText(text: string, max = 150): string {
  if (!text) return '';
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

const turkish = () => currentLanguage() === 'tr';

/** Notifications and activity: s, m, h, d ago (part 1 §2, part 2 §9); sn, dk, sa, g önce in Turkish. */
export function shortAgo(value: string | number | Date, now: number = Date.now()): string {
  const diff = Math.max(0, now - toDate(value).getTime());
  const tr = turkish();
  const s = Math.floor(diff / 1000);
  if (s < 60) return tr ? `${s} sn önce` : `${s}s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return tr ? `${m} dk önce` : `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 24) return tr ? `${h} sa önce` : `${h}h ago`;
  const d = Math.floor(h / 24);
  return tr ? `${d} g önce` : `${d}d ago`;
}

/** Feed card and comment time (part 1 §2), in the interface language. */
export function feedAgo(value: string | number | Date, now: number = Date.now()): string {
  const d = toDate(value);
  const diff = Math.max(0, now - d.getTime());
  if (!turkish()) return englishAgo(d, diff);
  if (diff < MINUTE) return 'az önce';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} dakika önce`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)} saat önce`;
  if (diff < 7 * DAY) return `${Math.floor(diff / DAY)} gün önce`;
  if (diff < 30 * DAY) return `${Math.floor(diff / (7 * DAY))} hafta önce`;
  return longDate(d);
}

/** `n unit(s) ago`, as Intl.RelativeTimeFormat('en-US', { numeric: 'auto' }) writes it (format.test.ts holds them equal). */
function englishUnitsAgo(n: number, unit: 'minute' | 'hour' | 'day' | 'week'): string {
  if (n === 1 && unit === 'day') return 'yesterday';
  if (n === 1 && unit === 'week') return 'last week';
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

/**
 * Written out rather than asked of Intl.RelativeTimeFormat: its first formatter loads the locale's data, 15-30 ms
 * of a phone's main thread inside the first feed card's render (issue 43 §5, as the dates below).
 */
function englishAgo(d: Date, diff: number): string {
  if (diff < MINUTE) return 'just now';
  if (diff < HOUR) return englishUnitsAgo(Math.floor(diff / MINUTE), 'minute');
  if (diff < DAY) return englishUnitsAgo(Math.floor(diff / HOUR), 'hour');
  if (diff < 7 * DAY) return englishUnitsAgo(Math.floor(diff / DAY), 'day');
  if (diff < 30 * DAY) return englishUnitsAgo(Math.floor(diff / (7 * DAY)), 'week');
  return longDate(d);
}

/*
 * The dates below are written out here, as toLocaleDateString writes them for tr-TR and en-US (format.test.ts
 * holds them equal): the first date of a locale formatted by Intl loads that locale's data, 20-30 ms of a
 * phone's main thread in the middle of the first screen (a profile's 'Katılma' date, issue 30).
 */
const TR_MONTHS = ['Ocak', 'Şubat', 'Mart', 'Nisan', 'Mayıs', 'Haziran', 'Temmuz', 'Ağustos', 'Eylül', 'Ekim', 'Kasım', 'Aralık'];
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const TR_SHORT_MONTHS = ['Oca', 'Şub', 'Mar', 'Nis', 'May', 'Haz', 'Tem', 'Ağu', 'Eyl', 'Eki', 'Kas', 'Ara'];
const TR_WEEKDAYS = ['Pazar', 'Pazartesi', 'Salı', 'Çarşamba', 'Perşembe', 'Cuma', 'Cumartesi'];
const pad2 = (n: number) => String(n).padStart(2, '0');
/** What toLocaleDateString writes for a date that is none. */
const INVALID = 'Invalid Date';

/** A date writer for any value a date is given as: a value that is no date is written as toLocaleDateString writes it. */
const dateWriter =
  (write: (d: Date) => string) =>
  (value: string | number | Date): string => {
    const d = toDate(value);
    return Number.isNaN(d.getTime()) ? INVALID : write(d);
  };

const turkishLong = (d: Date) => `${d.getDate()} ${TR_MONTHS[d.getMonth()]} ${d.getFullYear()}`;
const englishLong = (d: Date) => `${EN_MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;

/** Long date: 'Joined {date}' / 'Katılma: {date}' (part 1 §2), 'Created {date}' (part 2 §9). */
export const longDate = dateWriter((d) => (turkish() ? turkishLong(d) : englishLong(d)));

export const shortDate = dateWriter((d) =>
  turkish() ? `${pad2(d.getDate())}.${pad2(d.getMonth() + 1)}.${d.getFullYear()}` : `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`,
);

/** Month and year, e.g. 'Nov 2026' / 'Kas 2026' (part 2 §9, 'Joined {month year}'). */
export const monthYear = dateWriter((d) => `${turkish() ? TR_SHORT_MONTHS[d.getMonth()] : EN_MONTHS[d.getMonth()].slice(0, 3)} ${d.getFullYear()}`);

/** Month and day, e.g. 'Jun 10' / '10 Haz'. */
const monthDay = (d: Date) => (turkish() ? `${d.getDate()} ${TR_SHORT_MONTHS[d.getMonth()]}` : `${EN_MONTHS[d.getMonth()].slice(0, 3)} ${d.getDate()}`);

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
const dayDiff = (value: Date, now: Date) => Math.round((startOfDay(now) - startOfDay(value)) / DAY);

/** Squads: Today, Yesterday, N days ago (under 7), N weeks ago (under 30), otherwise a date (part 2 §9). */
export function squadTime(value: string | number | Date, now: Date = new Date()): string {
  const d = toDate(value);
  const days = dayDiff(d, now);
  if (days <= 0) return translate('time.today');
  if (days === 1) return translate('time.yesterday');
  if (days < 7) return translate('time.daysAgo', { count: days });
  if (days < 30) return translate('time.weeksAgo', { count: Math.floor(days / 7) });
  return turkish() ? `${monthDay(d)} ${d.getFullYear()}` : `${monthDay(d)}, ${d.getFullYear()}`;
}

/** Message times: Now, Nm, Nh, Nd (under 7), otherwise a date (part 2 §9). */
export function messageTime(value: string | number | Date, now: number = Date.now()): string {
  const d = toDate(value);
  const diff = Math.max(0, now - d.getTime());
  const tr = turkish();
  if (diff < MINUTE) return translate('time.now');
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}${tr ? ' dk' : 'm'}`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}${tr ? ' sa' : 'h'}`;
  if (diff < 7 * DAY) return `${Math.floor(diff / DAY)}${tr ? ' g' : 'd'}`;
  return monthDay(d);
}

/** Conversation list time: clock today, Yesterday, weekday within 7 days, else month and day (part 2 §9). */
export function conversationTime(value: string | number | Date, now: Date = new Date()): string {
  const d = toDate(value);
  const days = dayDiff(d, now);
  const tr = turkish();
  if (days <= 0) return tr ? `${pad2(d.getHours())}:${pad2(d.getMinutes())}` : d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  if (days === 1) return translate('time.yesterday');
  if (days < 7) return tr ? TR_WEEKDAYS[d.getDay()] : d.toLocaleDateString('en-US', { weekday: 'long' });
  return monthDay(d);
}

export interface NamedPerson {
  display_name?: string | null;
  username?: string | null;
  name?: string | null;
}

/** The server's card of a member who deleted their account (libs/contracts DELETED_MEMBER_CARD): no username. */
const DELETED_MEMBER = 'Deleted member';

export function personName(p: NamedPerson | null | undefined): string {
  if (!p) return translate('products.unknownUser');
  if (p.display_name === DELETED_MEMBER && !p.username) return translate('deleteAccount.deletedMember');
  return p.display_name || p.name || p.username || translate('products.unknownUser');
}

/** Group conversation name: first 2 member names plus '+N others' (part 2 §2). */
export function conversationName(others: NamedPerson[], explicit?: string | null): string {
  if (explicit) return explicit;
  if (!others || others.length === 0) return translate('messages.conversation');
  const names = others.map(personName);
  if (names.length <= 2) return names.join(', ');
  return translate('messages.andOthers', { names: names.slice(0, 2).join(', '), count: names.length - 2 });
}

/** '+N' after three avatars on a squad card (part 2 §2). */
export function extraCount(total: number, shown = 3): string | null {
  return total > shown ? `+${total - shown}` : null;
}

export function price(value: number | string | null | undefined): string {
  const n = Number(value ?? 0);
  return `$${(Number.isFinite(n) ? n : 0).toFixed(2)}`;
}

export function oneDecimal(value: number | null | undefined): string {
  return Number(value ?? 0).toFixed(1);
}

export function memberLabel(count: number): string {
  return translate('squads.memberCount', { count });
}

/** Product link: its slug, else the name lowercased with spaces replaced by hyphens (part 1 §2). */
export function productSlug(p: { slug?: string | null; name: string; id?: string }): string {
  return p.slug || p.name.toLowerCase().replace(/\s+/g, '-');
}

/** A product or squad category as the API stores it (English), shown in the interface language. */
export function categoryName(category: string): string {
  const key = `categories.${category}` as TextKey;
  const text = translate(key);
  return text === key ? category : text;
}
