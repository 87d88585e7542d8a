import type { ReviewView } from '@app/contracts';

/** A review's own address (its page, /review/:id), which unfurls as a card where it is shared. */
export function reviewLink(r: Pick<ReviewView, 'id'>): string {
  return `${window.location.origin}/review/${r.id}`;
}
