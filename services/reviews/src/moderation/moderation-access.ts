import { isModerator } from '@app/contracts';
import { AuthenticatedUser } from '@app/platform';
import { ReviewsException } from '../reviews.errors';

/** Moderation routes answer 403 to members; the role is the one auth signed into the token. */
export function assertModerator(user: AuthenticatedUser): void {
  if (!isModerator(user.role)) throw new ReviewsException('MODERATOR_ONLY', 'Only moderators can do this');
}

export function assertAdmin(user: AuthenticatedUser): void {
  if (user.role !== 'admin') throw new ReviewsException('ADMIN_ONLY', 'Only admins can do this');
}
