import type { FollowStatus } from '@app/contracts';
import { translate } from '../../shared/i18n';

export interface ProfileFollowInput {
  signedIn: boolean;
  own: boolean;
  placeholder: boolean;
  status?: Partial<FollowStatus> | null;
}

export interface ProfileFollowButton {
  hidden: boolean;
  label: string;
  disabled: boolean;
  action: 'login' | 'follow' | 'unfollow' | 'none';
}

/** Follow button on another user's profile (part 1 §2). */
export function profileFollowButton({ signedIn, own, placeholder, status }: ProfileFollowInput): ProfileFollowButton {
  if (own) return { hidden: true, label: '', disabled: true, action: 'none' };
  if (!signedIn || placeholder) return { hidden: false, label: translate('profile.loginToFollow'), disabled: false, action: 'login' };
  if (status?.isBlocked) return { hidden: false, label: translate('profile.blocked'), disabled: true, action: 'none' };
  if (status?.isBlockedBy) return { hidden: false, label: translate('profile.blockedBy'), disabled: true, action: 'none' };
  if (status?.isFollowing) return { hidden: false, label: translate('profile.unfollow'), disabled: false, action: 'unfollow' };
  if (status?.isPending) return { hidden: false, label: translate('profile.requested'), disabled: false, action: 'unfollow' };
  return { hidden: false, label: translate('people.follow'), disabled: false, action: 'follow' };
}
