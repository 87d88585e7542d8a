import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { ReviewView } from '@app/contracts';
import { makeStore } from '../../core/store';
import { signedIn } from '../../core/session';
import { Stars } from '../../shared/ui';
import { buildReview } from '../composer/Composer';
import { ReviewCard } from './ReviewCard';

const review = (over: Partial<ReviewView> = {}): ReviewView => ({
  id: 'r1',
  user_id: 'u1',
  product_id: null,
  rating: 3.5,
  title: '',
  content: 'The butler did it.',
  images: [],
  image_alts: [],
  tags: [],
  location: null,
  date: null,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  edited: false,
  has_spoilers: false,
  likes: 0,
  like_count: 0,
  comment_count: 0,
  liked: false,
  saved: false,
  user: { id: 'u1', username: 'ayse', display_name: 'Ayse', profile_image_url: null },
  product: null,
  ...over,
});

function renderCard(r: ReviewView) {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter>
        <ReviewCard review={r} />
      </MemoryRouter>
    </Provider>,
  );
}

const versions = (firstIsSpoiler = false) => [
  { version: 2, content: 'Second take', rating: 2.5, title: '', has_spoilers: false, written_at: '2026-01-02T00:00:00Z', edited_at: '2026-01-03T00:00:00Z' },
  { version: 1, content: 'First take', rating: 2, title: '', has_spoilers: firstIsSpoiler, written_at: '2026-01-01T00:00:00Z', edited_at: '2026-01-02T00:00:00Z' },
];
const history = { versions: versions() };

// The history modal's query answers from here: jsdom cannot fetch the relative API URL.
vi.mock('./reviewsApi', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./reviewsApi')>()),
  useReviewHistoryQuery: () => ({ data: history.versions, error: undefined, isLoading: false }),
}));

afterEach(() => {
  cleanup();
  history.versions = versions();
});

describe('half stars (issue 21 §1)', () => {
  it('shows a half star and names the value', () => {
    render(<Stars value={3.5} />);
    expect(screen.getByRole('img', { name: '3.5 of 5 stars' })).toBeTruthy();
    expect(document.querySelectorAll('[data-half="true"]')).toHaveLength(1);
  });

  it('rounds an average to the nearest half', () => {
    render(<Stars value={3.74} />);
    expect(screen.getByRole('img', { name: '3.5 of 5 stars' })).toBeTruthy();
  });

  it('offers every half step as a button', () => {
    const pick = vi.fn();
    render(<Stars value={0} onChange={pick} />);
    expect(screen.getAllByRole('button')).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: '4.5 stars' }));
    fireEvent.click(screen.getByRole('button', { name: '1 star' }));
    expect(pick.mock.calls).toEqual([[4.5], [1]]);
  });
});

describe('spoilers (issue 21 §2)', () => {
  it('hides the text behind a button until it is pressed', () => {
    renderCard(review({ has_spoilers: true }));
    expect(screen.queryByText('The butler did it.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Spoiler — show' }));
    expect(screen.getByText('The butler did it.')).toBeTruthy();
  });

  it('shows the text of a review without spoilers at once', () => {
    renderCard(review());
    expect(screen.getByText('The butler did it.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Spoiler — show' })).toBeNull();
  });

  it('the composer sends has_spoilers only when ticked', () => {
    const base = { text: 'x', rating: 2.5, product: null, images: [], location: '', date: '' };
    expect(buildReview({ ...base, spoilers: true })).toEqual({ content: 'x', images: [], rating: 2.5, has_spoilers: true });
    expect(buildReview(base)).toEqual({ content: 'x', images: [], rating: 2.5 });
  });
});

describe('edit history (issue 21 §3)', () => {
  it('the edited label is a button that opens the history dialog', () => {
    renderCard(review({ edited: true }));
    fireEvent.click(screen.getByTestId('edited-label'));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getAllByTestId('review-version').map((li) => li.querySelector('p')?.textContent)).toEqual(['Second take', 'First take']);
  });

  it("keeps a spoiler review's earlier versions behind the spoiler guard, each until it is asked for (issue 43 §2)", () => {
    renderCard(review({ edited: true, has_spoilers: true }));
    fireEvent.click(screen.getByTestId('edited-label'));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).not.toContain('Second take');
    expect(dialog.textContent).not.toContain('First take');
    const guards = screen.getAllByTestId('version-spoiler-reveal');
    expect(guards).toHaveLength(2);
    fireEvent.click(guards[0]);
    expect(dialog.textContent).toContain('Second take');
    expect(dialog.textContent).not.toContain('First take');
  });

  it('guards a version written as a spoiler though the review is no longer marked one', () => {
    history.versions = versions(true);
    renderCard(review({ edited: true }));
    fireEvent.click(screen.getByTestId('edited-label'));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Second take');
    expect(dialog.textContent).not.toContain('First take');
    expect(screen.getAllByTestId('version-spoiler-reveal')).toHaveLength(1);
  });
});

describe('hashtags and alt text (issue 21 §6, §7)', () => {
  it('links each #tag of the text to its tag page, keeping the text as written', () => {
    renderCard(review({ content: 'Sabah #Kahve, akşam #çay.', tags: ['kahve', 'çay'] }));
    const links = screen.getAllByTestId('hashtag-link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['#Kahve', '/tags/Kahve'],
      ['#çay', `/tags/${encodeURIComponent('çay')}`],
    ]);
    expect(document.querySelector('.review-content')?.textContent).toBe('Sabah #Kahve, akşam #çay.');
  });

  it("uses each image's description as its alt, and a numbered name where there is none", () => {
    renderCard(review({ images: ['/api/media/a', '/api/media/b'], image_alts: ['Kırmızı kupa', ''] }));
    expect(screen.getByAltText('Kırmızı kupa').getAttribute('src')).toBe('/api/media/a');
    expect(screen.getByAltText('Review image 2').getAttribute('src')).toBe('/api/media/b');
  });

  it('the composer sends the descriptions only when one is given', () => {
    const base = { text: 'x', rating: null, product: null, images: ['/api/media/a', '/api/media/b'], location: '', date: '' };
    expect(buildReview({ ...base, alts: [' Kupa ', ''] })).toMatchObject({ image_alts: ['Kupa', ''] });
    expect(buildReview({ ...base, alts: ['', ' '] })).not.toHaveProperty('image_alts');
  });
});

describe('the edit form in the card', () => {
  it('shows one star input, not the read-only stars too, and its Save and Cancel buttons', () => {
    const store = makeStore();
    store.dispatch(signedIn({ token: 't', user: { id: 'u1', username: 'ayse', email: 'a@example.com', display_name: 'Ayse', name: 'Ayse', avatar: null, created_at: '', role: 'member', language: 'en' } }));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <ReviewCard review={review()} />
        </MemoryRouter>
      </Provider>,
    );
    expect(screen.getAllByTestId('stars')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    fireEvent.click(screen.getByTestId('review-edit-button'));

    const stars = screen.getAllByTestId('stars');
    expect(stars).toHaveLength(1);
    expect(stars[0].getAttribute('role')).toBe('group');
    expect(screen.getByTestId('review-edit').querySelector('.btn-primary')?.textContent).toBe('Save');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('review-edit')).toBeNull();
  });
});

describe('the card menu (issue 43 §5)', () => {
  it("offers no Report on the member's own review, and Report on another member's", () => {
    const store = makeStore();
    store.dispatch(signedIn({ token: 't', user: { id: 'u1', username: 'ayse', email: 'a@example.com', display_name: 'Ayse', name: 'Ayse', avatar: null, created_at: '', role: 'member', language: 'en' } }));
    const other = { id: 'u2', username: 'mehmet', display_name: 'Mehmet', profile_image_url: null };
    render(
      <Provider store={store}>
        <MemoryRouter>
          <ReviewCard review={review()} />
          <ReviewCard review={review({ id: 'r2', user_id: 'u2', user: other })} />
        </MemoryRouter>
      </Provider>,
    );
    const [mine, theirs] = screen.getAllByRole('button', { name: 'More actions' });
    fireEvent.click(mine);
    expect(screen.getByTestId('review-edit-button')).toBeTruthy();
    expect(screen.queryByTestId('review-report-button')).toBeNull();
    fireEvent.click(mine);
    fireEvent.click(theirs);
    expect(screen.getByTestId('review-report-button')).toBeTruthy();
  });
});
