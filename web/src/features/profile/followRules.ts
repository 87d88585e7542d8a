import type { FollowStatus } from '@app/contracts';

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
  if (!signedIn || placeholder) return { hidden: false, label: 'Takip etmek için giriş yap', disabled: false, action: 'login' };
  if (status?.isBlocked) return { hidden: false, label: 'Engellendi', disabled: true, action: 'none' };
  if (status?.isBlockedBy) return { hidden: false, label: 'Engellendin', disabled: true, action: 'none' };
  if (status?.isFollowing) return { hidden: false, label: 'Takibi Bırak', disabled: false, action: 'unfollow' };
  if (status?.isPending) return { hidden: false, label: 'İstek Gönderildi', disabled: false, action: 'unfollow' };
  return { hidden: false, label: 'Takip Et', disabled: false, action: 'follow' };
}
