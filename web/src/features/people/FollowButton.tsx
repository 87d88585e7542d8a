import { useEffect, useState } from 'react';
import { useAppDispatch } from '../../core/store';
import { errorCode, errorMessage } from '../../core/api';
import { translate } from '../../shared/i18n';
import { pushToast } from '../../shared/toast';
import { followReplyPending, useFollowMutation, useFollowStatusQuery, useUnfollowMutation } from './peopleApi';

export type FollowState = 'none' | 'pending' | 'following';

/** Label of the People to Follow and Friends button (part 1 §2, part 2 §2). */
export function followLabel(state: FollowState, loading: boolean): string {
  if (loading) return translate('common.loading');
  if (state === 'following') return translate('people.following');
  if (state === 'pending') return translate('people.pending');
  return translate('people.follow');
}

export function FollowButton({ userId, small }: { userId: string; small?: boolean }) {
  const dispatch = useAppDispatch();
  const status = useFollowStatusQuery(userId);
  const [follow, f] = useFollowMutation();
  const [unfollow, u] = useUnfollowMutation();
  const [state, setState] = useState<FollowState>('none');

  useEffect(() => {
    if (status.data) setState(status.data.isFollowing ? 'following' : status.data.isPending ? 'pending' : 'none');
  }, [status.data]);

  const loading = status.isLoading || f.isLoading || u.isLoading;

  async function toggle(e: React.MouseEvent) {
    e.stopPropagation();
    if (state === 'none') {
      const r = await follow(userId);
      if ('error' in r) {
        if (errorCode(r.error) === 'ALREADY_FOLLOWING') return setState('following');
        dispatch(pushToast({ title: translate('common.error'), message: errorMessage(r.error, translate('people.followFailed')), kind: 'error' }));
        return;
      }
      setState(followReplyPending(r.data) ? 'pending' : 'following');
    } else {
      const r = await unfollow(userId);
      if ('error' in r) {
        dispatch(pushToast({ title: translate('common.error'), message: errorMessage(r.error, translate('people.followFailed')), kind: 'error' }));
        return;
      }
      setState('none');
    }
  }

  return (
    <button
      className={`btn ${state === 'none' ? 'btn-primary' : ''} ${small ? 'btn-sm' : ''}`}
      onClick={toggle}
      disabled={loading || status.data?.isBlocked || status.data?.isBlockedBy}
      data-testid={`follow-${userId}`}
    >
      {followLabel(state, loading)}
    </button>
  );
}
