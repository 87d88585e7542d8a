import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import type { KeywordFilterView, ReviewView } from '@app/contracts';
import { makeStore } from '../../core/store';
import { ReviewCard } from '../reviews/ReviewCard';
import { KeywordFilters } from './KeywordFilters';

// jsdom cannot reach the API: the filter hooks answer from here and record what was asked.
const add = vi.fn();
const remove = vi.fn();
let rows: KeywordFilterView[] = [];
vi.mock('./filtersApi', () => ({
  useKeywordFiltersQuery: () => ({ data: rows, isLoading: false, isError: false }),
  useAddKeywordFilterMutation: () => [add, { isLoading: false }],
  useDeleteKeywordFilterMutation: () => [remove, { isLoading: false }],
}));

const wrap = (node: ReactNode) =>
  render(
    <Provider store={makeStore()}>
      <MemoryRouter>{node}</MemoryRouter>
    </Provider>,
  );

beforeEach(() => {
  add.mockReset().mockResolvedValue({ data: {} });
  remove.mockReset().mockResolvedValue({ data: undefined });
});
afterEach(cleanup);

describe('keyword filters in the web (issue 22 §2)', () => {
  it('Settings adds a whole-word filter for 7 days and deletes one', async () => {
    rows = [{ id: 'f1', phrase: 'spoiler', whole_word: false, expires_at: null, active: true, created_at: '' }];
    wrap(<KeywordFilters />);
    expect(screen.getByText('spoiler')).toBeTruthy();
    fireEvent.change(screen.getByTestId('filter-phrase'), { target: { value: '  şeker ' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.change(screen.getByRole('combobox'), { target: { value: '7' } });
    fireEvent.click(screen.getByTestId('filter-add'));
    await vi.waitFor(() => expect(add).toHaveBeenCalled());
    const sent = add.mock.calls[0][0] as { phrase: string; whole_word: boolean; expires_at: string };
    expect(sent.phrase).toBe('şeker');
    expect(sent.whole_word).toBe(true);
    expect(Date.parse(sent.expires_at) - Date.now()).toBeGreaterThan(6 * 86_400_000);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(remove).toHaveBeenCalledWith('f1');
  });

  it('shows a matching review collapsed as "Filtered: phrase" until asked', () => {
    const review = {
      id: 'r1', user_id: 'u2', product_id: null, rating: null, title: '', content: 'Çok şekerli', images: [], image_alts: [], tags: [], location: null, date: null,
      created_at: new Date().toISOString(), updated_at: new Date().toISOString(), edited: false, has_spoilers: false, likes: 0, like_count: 0,
      comment_count: 0, liked: false, saved: false, user: { id: 'u2', username: 'burak', display_name: 'Burak', profile_image_url: null }, product: null,
      filtered_by: 'şeker',
    } satisfies ReviewView;
    wrap(<ReviewCard review={review} />);
    expect(screen.getByTestId('review-filtered').textContent).toContain('Filtered: şeker');
    expect(screen.queryByText('Çok şekerli')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show anyway' }));
    expect(screen.getByText('Çok şekerli')).toBeTruthy();
  });
});
