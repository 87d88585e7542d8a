import { useState } from 'react';
import { Link } from 'react-router-dom';
import { UserMinus } from 'lucide-react';
import type { SquadRole } from '@app/contracts';
import { useAppDispatch, useSession } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { Avatar } from '../../shared/ui';
import { monthYear, personName } from '../../shared/format';
import type { SquadView } from '@app/contracts';
import { useRemoveMemberMutation, useSetMemberRoleMutation } from './squadsApi';
import { useT } from '../../shared/i18n';

// a value import of @app/contracts would bundle class-validator: the roles are checked against its type instead
const ROLES = ['admin', 'moderator', 'member'] as const satisfies readonly SquadRole[];

/**
 * The Members list (first 5, View All / Show Less). An admin also gets, on every other member, a role
 * selector (PUT /squads/:id/members/:userId) and a Remove button (DELETE); admins themselves cannot be removed.
 */
export function SquadMembers({ squad }: { squad: SquadView }) {
  const t = useT();
  const { user } = useSession();
  const dispatch = useAppDispatch();
  const [showAll, setShowAll] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [setRole] = useSetMemberRoleMutation();
  const [remove] = useRemoveMemberMutation();
  const members = squad.members ?? [];
  const shown = showAll ? members : members.slice(0, 5);
  const isAdmin = squad.is_member && squad.user_role === 'admin';

  async function changeRole(userId: string, role: SquadRole) {
    setBusy(userId);
    const r = await setRole({ id: squad.id, userId, role });
    setBusy(null);
    if ('error' in r) dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('squads.roleFailed')), kind: 'error' }));
  }

  async function removeMember(userId: string, name: string) {
    if (!window.confirm(t('squads.confirmRemove', { name, squad: squad.name }))) return;
    setBusy(userId);
    const r = await remove({ id: squad.id, userId });
    setBusy(null);
    if ('error' in r) dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('squads.removeFailed')), kind: 'error' }));
  }

  return (
    <section className="card" data-testid="squad-members">
      <div className="row">
        <h2 className="panel-title">{t('squads.members')}</h2>
        {members.length > 5 && (
          <button className="link small push-right" onClick={() => setShowAll((s) => !s)}>
            {showAll ? t('squads.showLess') : t('squads.viewAll')}
          </button>
        )}
      </div>
      {shown.map((m) => {
        const name = personName(m);
        const manageable = isAdmin && m.id !== user?.id;
        return (
          <div key={m.id} className="member-row" data-testid="squad-member">
            <Avatar src={m.profile_image_url} name={name} size={34} />
            <div style={{ flex: 1, minWidth: 0 }}>
              <Link to={`/user/${m.username}`} className="strong ellipsis block">
                {name}
              </Link>
              <div className="muted small">{t('squads.joined', { date: monthYear(m.joined_at) })}</div>
            </div>
            {manageable ? (
              <>
                <select
                  className="role-select"
                  aria-label={t('squads.roleOf', { name })}
                  value={m.role}
                  disabled={busy === m.id}
                  onChange={(e) => void changeRole(m.id, e.target.value as SquadRole)}
                  data-testid="member-role"
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {t(`squads.role_${r}`)}
                    </option>
                  ))}
                </select>
                {m.role !== 'admin' && (
                  <button
                    className="icon-btn small"
                    aria-label={t('common.remove', { name })}
                    title={t('squads.removeMember')}
                    disabled={busy === m.id}
                    onClick={() => void removeMember(m.id, name)}
                    data-testid="member-remove"
                  >
                    <UserMinus size={16} aria-hidden="true" />
                  </button>
                )}
              </>
            ) : (
              <span className={`pill pill-${m.role}`}>{t(`squads.role_${m.role}`)}</span>
            )}
          </div>
        );
      })}
    </section>
  );
}
