const FOLD: Record<string, string> = { ç: 'c', ğ: 'g', ı: 'i', İ: 'i', ö: 'o', ş: 's', ü: 'u', ß: 'ss' };
const SLUG_MAX = 80;

/** 'Wireless Earbuds Pro!' -> 'wireless-earbuds-pro' (spec part 1 §2: name lowercased, spaces to hyphens). */
export function slugify(name: string): string {
  const folded = [...name].map((ch) => FOLD[ch] ?? ch).join('');
  const slug = folded
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '');
  return slug || 'product';
}

/** The n-th candidate when the plain slug is taken: 'x', 'x-2', 'x-3'... */
export function slugCandidate(base: string, attempt: number): string {
  return attempt === 0 ? base : `${base}-${attempt + 1}`;
}
