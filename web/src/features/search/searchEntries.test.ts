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

const results = (reviews: ReviewView[]): SearchResultsView => ({ products: [], users: [], reviews, squads: [] });

describe('searchEntries', () => {
  it("labels a review by its title, else by the start of its text", () => {
    const [titled, plain] = searchEntries(results([review({ id: 'a', title: 'A fine kettle' }), review({ id: 'b' })]), 'Spoilers');
    expect(titled.label).toBe('A fine kettle');
    expect(plain.label).toBe('The butler did it, in the last chapter');
    expect(plain.path).toBe('/user/ayse');
  });

  it('never spells out the text of a review marked as spoilers', () => {
    const [entry] = searchEntries(results([review({ has_spoilers: true })]), 'Review with spoilers');
    expect(entry.label).toBe('Review with spoilers');
    expect(JSON.stringify(entry)).not.toMatch(/butler/);
  });
});
