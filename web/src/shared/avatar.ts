/**
 * The initials avatar shown when a member has no picture, drawn in the page (never an external service).
 * Its colours are dark enough for white text.
 */
const PALETTE = ['#4f46e5', '#0369a1', '#047857', '#b45309', '#b91c1c', '#6d28d9', '#be185d', '#0f766e'];

export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0][0] ?? '';
  const second = parts.length > 1 ? parts[parts.length - 1][0] ?? '' : '';
  return (first + second).toUpperCase();
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return Math.abs(h);
}

/** The background of `name`'s initials avatar: always the same for a name; white text on it reads at 4.5:1 or more. */
export function initialsColour(name: string | null | undefined): string {
  return PALETTE[hash(name ?? '?') % PALETTE.length];
}
