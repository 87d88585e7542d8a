/**
 * What a shared link's preview shows (Open Graph and Twitter card tags, issue 30 §4), answered by a
 * service's public `GET /api/cards/...` for public content only: a private profile, a hidden review or
 * one by a non-public author has no card (404).
 */
export interface LinkCardView {
  /** og:type: a product and a review are pages of their own, a member a profile, the catalogue the site's own page. */
  type: 'product' | 'profile' | 'article' | 'website';
  title: string;
  description: string;
  /** A path on this site (/api/media/...) or null. */
  image: string | null;
  image_alt: string | null;
  /** Stars out of 5 (a product's average, a review's own); null when none. */
  rating: number | null;
  /** A profile's card: what its page's head shows, for the page's first screen (gateway/src/link-cards). */
  person?: { name: string; username: string; bio: string | null };
}

/** A description cut to what previews show, at a word boundary, one line. */
export function cardText(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
