import type { SearchResultsView } from '@app/contracts';
import { categoryName, productSlug } from '../../shared/format';
import type { TextKey } from '../../shared/i18n/translate';

export const SEARCH_GROUPS = ['products', 'users', 'reviews', 'tags', 'squads'] as const;
export type SearchGroup = (typeof SEARCH_GROUPS)[number];

/** The heading of each group (the Tags group's text is in the `live` block). */
export const SEARCH_GROUP_TITLES: Record<SearchGroup, TextKey> = {
  products: 'search.products',
  users: 'search.users',
  reviews: 'search.reviews',
  tags: 'live.searchTags',
  squads: 'search.squads',
};

/** One result as the top bar and the results page show it: a label, a second line and where it leads. */
export interface SearchEntry {
  key: string;
  group: SearchGroup;
  label: string;
  detail: string;
  path: string;
}

/**
 * The results in group order, each entry with its link (a review leads to its product, or to its
 * author without one). A review marked as spoilers never shows its text here: its title, or
 * `spoilerLabel` (the card hides the text until asked; a result list has nothing to click open).
 */
export function searchEntries(results: SearchResultsView, spoilerLabel: string, tagDetail: (reviews: number) => string): SearchEntry[] {
  return [
    ...results.products.map((p) => ({ key: `p:${p.id}`, group: 'products' as const, label: p.name, detail: categoryName(p.category), path: `/product/${productSlug(p)}` })),
    ...results.users.map((u) => ({ key: `u:${u.id}`, group: 'users' as const, label: u.display_name, detail: `@${u.username}`, path: `/user/${u.username}` })),
    ...results.reviews.map((r) => ({
      key: `r:${r.id}`,
      group: 'reviews' as const,
      label: r.title || (r.has_spoilers ? spoilerLabel : r.content.slice(0, 80)),
      detail: `${r.user.display_name}${r.product ? ` · ${r.product.name}` : ''}`,
      path: r.product ? `/product/${productSlug(r.product)}` : `/user/${r.user.username}`,
    })),
    ...(results.tags ?? []).map((tag) => ({
      key: `t:${tag.tag}`,
      group: 'tags' as const,
      label: `#${tag.tag}`,
      detail: tagDetail(tag.review_count),
      path: `/tags/${encodeURIComponent(tag.tag)}`,
    })),
    ...results.squads.map((s) => ({ key: `s:${s.id}`, group: 'squads' as const, label: s.name, detail: categoryName(s.category), path: `/squads/${s.id}` })),
  ];
}
