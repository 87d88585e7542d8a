const TURKISH: Record<string, string> = { ç: 'c', ğ: 'g', ı: 'i', İ: 'i', ö: 'o', ş: 's', ü: 'u' };

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 24;

/** The base of a username derived from a display name: "Ayşe Yılmaz" -> "ayse_yilmaz". */
export function usernameBase(name: string): string {
  const ascii = name
    .replace(/[çğıİöşü]/gi, (c) => TURKISH[c] ?? TURKISH[c.toLowerCase()] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const base = ascii
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, USERNAME_MAX - 4);
  return base.length >= USERNAME_MIN ? base : `${base || 'user'}_${'x'.repeat(Math.max(0, USERNAME_MIN - base.length - 1))}`.slice(0, USERNAME_MAX);
}

/** The n-th candidate: the base first, then base + a number. */
export function usernameCandidate(base: string, attempt: number): string {
  if (attempt === 0) return base;
  const suffix = attempt < 5 ? String(attempt + 1) : String(Math.floor(1000 + Math.random() * 9000));
  return `${base}${suffix}`;
}
