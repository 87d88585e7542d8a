import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import type { ConnectionRow, ReviewView } from '@app/contracts';
import { makeStore } from '../../core/store';
import { signedIn } from '../../core/session';
import { ReviewMoreMenu } from '../reviews/ReviewMoreMenu';
import { MutedAccounts } from './MutedAccounts';

// jsdom cannot reach the API: the mutes hooks answer from here and record what was asked.
const mute = vi.fn();
let rows: ConnectionRow[] = [];
vi.mock('../people/peopleApi', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../people/peopleApi')>()),
  useMutesQuery: () => ({ data: rows, isLoading: false, isError: false }),
  useMuteMutation: () => [mute, { isLoading: false }],
}));

const burak: ConnectionRow = { id: 'u2', username: 'burak', display_name: 'Burak', profile_image_url: null, bio: '', since: '2026-11-01T00:00:00Z' };

function renderWithStore(node: ReactNode) {
  const store = makeStore();
  store.dispatch(signedIn({ token: 't', user: { id: 'u1', username: 'ayse', email: 'a@example.com', display_name: 'Ayse', name: 'Ayse', avatar: null, created_at: '', role: 'member', language: 'en' } }));
  render(
    <Provider store={store}>
      <MemoryRouter>{node}</MemoryRouter>
    </Provider>,
  );
  return store;
}

beforeEach(() => {
  mute.mockReset();
  mute.mockResolvedValue({ data: undefined });
});
afterEach(cleanup);

describe('mutes on the server (issue 22 §1)', () => {
  it('Settings lists muted members and Unmute asks the server', () => {
    rows = [burak];
    renderWithStore(<MutedAccounts />);
    expect(screen.getByText('@burak')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(mute).toHaveBeenCalledWith({ id: 'u2', mute: false });
  });

  it('says so when nobody is muted', () => {
    rows = [];
    renderWithStore(<MutedAccounts />);
    expect(screen.getByText('You have not muted anyone.')).toBeTruthy();
  });

  it("the card menu's Mute this user asks the server and says the member is not told", async () => {
    const review = { id: 'r1', user_id: 'u2', user: { id: 'u2', username: 'burak', display_name: 'Burak', profile_image_url: null } } as ReviewView;
    const store = renderWithStore(<ReviewMoreMenu review={review} onEdit={() => undefined} onDeleted={() => undefined} onCopyLink={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    fireEvent.click(screen.getByTestId('review-mute-button'));
    expect(mute).toHaveBeenCalledWith({ id: 'u2', mute: true });
    await vi.waitFor(() => expect(store.getState().toasts.at(-1)?.message).toContain('@burak'));
    expect(localStorage.getItem('mutedUsers')).toBeNull();
  });
});
