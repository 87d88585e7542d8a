import { describe, expect, it } from 'vitest';
import { render, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { ReviewView } from '@app/contracts';
import { makeStore } from '../../core/store';
import { ReviewRow } from './ProfileParts';

const base = {
  id: 'r',
  user_id: 'u',
  product_id: 'p',
  rating: 4,
  title: 'Kettle',
  content: 'The ending is that the kettle was a toaster all along.',
  images: ['/api/media/photo-1'],
  image_alts: ['A kettle on a desk'],
  has_spoilers: false,
  created_at: new Date().toISOString(),
  product: { id: 'p', slug: 'kettle', name: 'Kettle', image_url: '/api/media/product-1', image_alt: null, category: 'Kitchen' },
} as unknown as ReviewView;

function row(review: ReviewView) {
  return render(
    <Provider store={makeStore()}>
      <MemoryRouter>
        <ReviewRow review={review} />
      </MemoryRouter>
    </Provider>,
  );
}

describe('profile review row (issue 43 §2)', () => {
  it('shows the review’s own photo, not a “No img” tile', () => {
    const { container } = row(base);
    expect(container.querySelector('img.thumb')?.getAttribute('src')).toBe('/api/media/photo-1');
    expect(container.querySelector('img.thumb')?.getAttribute('alt')).toBe('A kettle on a desk');
    expect(within(container).getByTestId('review-row-content').textContent).toContain('toaster');
  });

  it('keeps a spoiler’s text and photo behind the guard', () => {
    const { container } = row({ ...base, has_spoilers: true });
    expect(container.textContent).not.toContain('toaster');
    expect(within(container).queryByTestId('review-row-content')).toBeNull();
    expect(within(container).getByTestId('review-row-spoiler')).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
    expect(within(container).getByTestId('spoiler-thumb')).toBeTruthy();
    expect(container.textContent).not.toContain('No img');
  });
});
