import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { ListView } from '@app/contracts';
import { makeStore } from '../../core/store';
import { AddToListMenu } from './AddToListMenu';

// jsdom cannot reach the API: the list hooks answer from here and record what was asked.
const add = vi.fn();
const remove = vi.fn();
const asked: string[] = [];
let rows: ListView[] = [];
vi.mock('./listsApi', () => ({
  useListsHoldingQuery: (productId: string, options?: { skip?: boolean }) => {
    if (!options?.skip) asked.push(productId);
    return { data: options?.skip ? undefined : rows, isLoading: false, isFetching: false };
  },
  useAddToListMutation: () => [add],
  useRemoveFromListMutation: () => [remove],
}));

const list = (id: string, name: string, has_product: boolean, is_default = false): ListView => ({
  id,
  name,
  has_product,
  is_default,
  owner: { id: 'me', username: 'me', display_name: 'Me', profile_image_url: null },
  description: null,
  visibility: 'private',
  item_count: Number(has_product),
  created_at: '',
  updated_at: '',
});

beforeEach(() => {
  add.mockReset().mockResolvedValue({ data: {} });
  remove.mockReset().mockResolvedValue({ data: {} });
  asked.length = 0;
});
afterEach(cleanup);

describe('"Add to list" shows which lists hold the product (issue 31 §5)', () => {
  it('checks the lists holding it; a click on an unchecked one adds, on a checked one removes', async () => {
    rows = [list('l1', 'Want to try', true, true), list('l2', 'Kitchen', false)];
    render(
      <Provider store={makeStore()}>
        <AddToListMenu productId="p1" />
      </Provider>,
    );
    expect(asked).toEqual([]); // nothing loaded before the menu opens
    fireEvent.click(screen.getByTestId('add-to-list'));
    expect(asked).toContain('p1');
    const items = screen.getAllByRole('menuitemcheckbox');
    expect(items.map((i) => [i.textContent, i.getAttribute('aria-checked')])).toEqual([
      ['Want to try', 'true'],
      ['Kitchen', 'false'],
    ]);
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Kitchen' }));
    await vi.waitFor(() => expect(add).toHaveBeenCalledWith({ id: 'l2', productId: 'p1' }));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Want to try' }));
    await vi.waitFor(() => expect(remove).toHaveBeenCalledWith({ id: 'l1', productId: 'p1' }));
    expect(add).toHaveBeenCalledTimes(1);
    // the menu stays open for the next choice
    expect(screen.getByTestId('add-to-list-menu')).toBeTruthy();
  });
});
