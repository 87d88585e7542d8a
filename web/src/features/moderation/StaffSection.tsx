import { useState } from 'react';
import { errorMessage } from '../../core/api';
import { personName } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { useSearchUsersQuery } from '../people/peopleApi';
import { useModerationStaffQuery, useSetRoleMutation } from './moderationApi';

/** Admins: the staff list, removing a moderator, and appointing a member found by name. */
export function StaffSection({ isAdmin }: { isAdmin: boolean }) {
  const t = useT();
  const staff = useModerationStaffQuery();
  const [search, setSearch] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const found = useSearchUsersQuery(search.trim(), { skip: !isAdmin || search.trim().length < 2 });
  const [setRole, roleState] = useSetRoleMutation();
  const why = reason.trim();

  async function change(userId: string, role: 'member' | 'moderator') {
    const r = await setRole({ userId, role, reason: why });
    if ('error' in r) return setError(errorMessage(r.error, t('moderation.actionFailed')));
    setError(null);
    setReason('');
  }

  const staffIds = new Set((staff.data ?? []).map((s) => s.user.id));
  return (
    <div className="form" data-testid="moderation-staff">
      <ul className="plain-list">
        {(staff.data ?? []).map((s) => (
          <li key={s.user.id} className="person-row">
            <div className="person-text">
              <span className="strong">{personName(s.user)}</span> <span className="muted small">@{s.user.username} · {t(s.role === 'admin' ? 'moderation.role_admin' : 'moderation.role_moderator')}</span>
            </div>
            {isAdmin && s.role === 'moderator' && (
              <button className="btn btn-sm" disabled={roleState.isLoading || !why} onClick={() => void change(s.user.id, 'member')}>
                {t('moderation.removeModerator')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {isAdmin && (
        <>
          <label>
            {t('moderation.reason')}
            <input value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </label>
          <label>
            {t('moderation.findMember')}
            <input value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          {error && <p className="error-text">{error}</p>}
          <ul className="plain-list">
            {(found.data ?? [])
              .filter((p) => !staffIds.has(p.id))
              .map((p) => (
                <li key={p.id} className="person-row">
                  <div className="person-text">
                    <span className="strong">{personName(p)}</span> <span className="muted small">@{p.username}</span>
                  </div>
                  <button className="btn btn-sm" disabled={roleState.isLoading || !why} onClick={() => void change(p.id, 'moderator')}>
                    {t('moderation.makeModerator')}
                  </button>
                </li>
              ))}
          </ul>
        </>
      )}
    </div>
  );
}
