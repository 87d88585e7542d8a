import { useState } from 'react';
import type { JoinRequestView } from '@app/contracts';
import { useAppDispatch } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { Avatar } from '../../shared/ui';
import { personName, squadTime } from '../../shared/format';
import { useDecideJoinMutation } from './squadsApi';
import { useT } from '../../shared/i18n';

/** A squad's pending join requests, approved or rejected by an admin or moderator. */
export function JoinRequests({ squadId, requests }: { squadId: string; requests: JoinRequestView[] }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const [decide] = useDecideJoinMutation();
  const [pending, setPending] = useState<string | null>(null); // approve-{id}, reject-{id}

  async function doDecide(requestId: string, action: 'approve' | 'reject') {
    setPending(`${action}-${requestId}`);
    const r = await decide({ id: squadId, requestId, action });
    setPending(null);
    if ('error' in r) dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t(action === 'approve' ? 'squads.approveFailed' : 'squads.rejectFailed')), kind: 'error' }));
  }

  return (
    <section className="card" data-testid="join-requests">
      <h2 className="panel-title">{t('squads.joinRequests')}</h2>
      {requests.length === 0 && <p className="muted">{t('squads.noRequests')}</p>}
      {requests.map((r) => (
        <div key={r.id} className="request-row">
          <Avatar src={r.user.profile_image_url} name={personName(r.user)} size={40} />
          <div style={{ flex: 1 }}>
            <div className="strong">{personName(r.user)}</div>
            <div className="muted small">{squadTime(r.created_at)}</div>
            {r.message && <blockquote>"{r.message}"</blockquote>}
          </div>
          <button className="btn btn-sm btn-success" disabled={pending === `approve-${r.id}`} onClick={() => doDecide(r.id, 'approve')}>
            {pending === `approve-${r.id}` ? t('squads.approving') : t('squads.approve')}
          </button>
          <button className="btn btn-sm" disabled={pending === `reject-${r.id}`} onClick={() => doDecide(r.id, 'reject')}>
            {pending === `reject-${r.id}` ? t('squads.rejecting') : t('squads.reject')}
          </button>
        </div>
      ))}
    </section>
  );
}
