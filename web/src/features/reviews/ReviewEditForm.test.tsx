import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { ReviewView } from '@app/contracts';
import { makeStore } from '../../core/store';
import { buildEdit, ReviewEditForm } from './ReviewEditForm';

/** Issue 21 §7: the author changes the images' descriptions when editing a review. */

const review = (over: Partial<ReviewView> = {}): ReviewView => ({
  id: 'r1',
  user_id: 'u1',
  product_id: null,
  rating: null,
  title: '',
  content: 'Two cups',
  images: ['/api/media/a', '/api/media/b'],
  image_alts: ['Red cup', ''],
  tags: [],
  location: null,
  date: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
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

/** Answers every request with `reply` and keeps the bodies sent. */
function recordRequests(reply: unknown): { method: string; url: string; body: unknown }[] {
  const sent: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal('Request', class extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
    }
  });
  vi.stubGlobal('fetch', async (req: Request) => {
    sent.push({ method: req.method, url: new URL(req.url).pathname, body: await req.json() });
    return new Response(JSON.stringify({ success: true, data: reply }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return sent;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the edit body', () => {
  const base = { content: ' Two cups ', spoilers: false };

  it('leaves the images out while no description changed', () => {
    expect(buildEdit(review(), { ...base, alts: ['Red cup ', ''] })).toEqual({ content: 'Two cups', has_spoilers: false });
  });

  it('sends every description with the same images once one changed', () => {
    expect(buildEdit(review(), { ...base, alts: ['Red cup', ' Blue cup '] })).toEqual({
      content: 'Two cups',
      has_spoilers: false,
      images: ['/api/media/a', '/api/media/b'],
      image_alts: ['Red cup', 'Blue cup'],
    });
  });

  it('reads a review stored before alt text as having no descriptions', () => {
    const old = review({ image_alts: [] });
    expect(buildEdit(old, { ...base, alts: ['', ''] })).not.toHaveProperty('image_alts');
    expect(buildEdit(old, { ...base, alts: ['', 'Blue cup'] })).toMatchObject({ image_alts: ['', 'Blue cup'] });
  });
});

describe('the edit form', () => {
  it('shows each image with its description, and saves a changed one', async () => {
    const updated = review({ image_alts: ['Red cup', 'Blue cup'], edited: true });
    const sent = recordRequests(updated);
    const onDone = vi.fn();
    render(
      <Provider store={makeStore()}>
        <ReviewEditForm review={review()} onDone={onDone} />
      </Provider>,
    );
    const inputs = screen.getAllByTestId('edit-alt') as HTMLInputElement[];
    expect(inputs.map((i) => i.value)).toEqual(['Red cup', '']);
    expect(inputs[1].closest('div')?.querySelector('img')?.getAttribute('src')).toBe('/api/media/b');

    fireEvent.change(inputs[1], { target: { value: 'Blue cup' } });
    fireEvent.submit(screen.getByTestId('review-edit'));

    await waitFor(() => expect(onDone).toHaveBeenCalledWith(updated));
    expect(sent).toEqual([
      {
        method: 'PUT',
        url: '/api/reviews/r1',
        body: { content: 'Two cups', has_spoilers: false, images: ['/api/media/a', '/api/media/b'], image_alts: ['Red cup', 'Blue cup'] },
      },
    ]);
  });

  it('has no description inputs for a review without images', () => {
    render(
      <Provider store={makeStore()}>
        <ReviewEditForm review={review({ images: [], image_alts: [] })} onDone={() => undefined} />
      </Provider>,
    );
    expect(screen.queryAllByTestId('edit-alt')).toHaveLength(0);
  });
});
