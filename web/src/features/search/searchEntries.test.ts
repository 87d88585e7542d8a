import { describe, expect, it } from 'vitest';
import type { ReviewView, SearchResultsView } from '@app/contracts';
import { searchEntries } from './searchEntries';

const review = (over: Partial<ReviewView>): ReviewView =>
  ({
    id: 'r1',
    title: '',
    content: 'The butler did it, in the last chapter',
    has_spoilers: false,
    user: { id: 'u1', username: 'ayse', display_name: 'Ayşe', profile_image_url: null },
    product: null,
    ...over,
  }) as ReviewView;

const results = (reviews: ReviewView[]): SearchResultsView => ({ products: [], users: [], reviews, squads: [], tags: [] });
const tagDetail = (n: number) => `${n} reviews`;

describe('searchEntries', () => {
  it("labels a review by its title, else by the start of its text", () => {
    const [titled, plain] = searchEntries(results([review({ id: 'a', title: 'A fine kettle' }), review({ id: 'b' })]), 'Spoilers', tagDetail);
    expect(titled.label).toBe('A fine kettle');
    expect(plain.label).toBe('The butler did it, in the last chapter');
    expect(plain.path).toBe('/user/ayse');
  });

  it('never spells out the text of a review marked as spoilers', () => {
    const [entry] = searchEntries(results([review({ has_spoilers: true })]), 'Review with spoilers', tagDetail);
    expect(entry.label).toBe('Review with spoilers');
    expect(JSON.stringify(entry)).not.toMatch(/butler/);
  });

  it('lists the Tags group between reviews and squads, each tag leading to its page (issue 43 §5)', () => {
    const found = { ...results([review({ id: 'a' })]), tags: [{ tag: 'kahve', review_count: 3 }] };
    const entries = searchEntries(found, 'Spoilers', tagDetail);
    expect(entries.map((e) => e.group)).toEqual(['reviews', 'tags']);
    expect(entries[1]).toMatchObject({ label: '#kahve', detail: '3 reviews', path: '/tags/kahve' });
  });
});
