import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../shared/ui';
import { categoryName, extraCount, memberLabel } from '../../shared/format';
import type { SquadView } from '@app/contracts';
import { canRequestJoin, exploreJoinLabel, useRequestJoinMutation } from '../squads/squadsApi';
import { JoinModal } from '../squads/JoinModal';
import { useT } from '../../shared/i18n';

export function SquadCard({ squad }: { squad: SquadView }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [, state] = useRequestJoinMutation();
  const label = exploreJoinLabel(squad);
  const sample = (squad.sample_members ?? []).slice(0, 3);
  const extra = extraCount(squad.member_count, 3);
  return (
    <div className="card squad-card" data-testid="squad-card">
      <div className="row gap">
        <Avatar name={squad.name} size={44} />
        <div style={{ flex: 1, minWidth: 0 }}>
          <div className="strong ellipsis">{squad.name}</div>
          <div className="muted small">
            {categoryName(squad.category)} · {memberLabel(squad.member_count)}
          </div>
        </div>
      </div>
      <p className="muted small" style={{ margin: 0 }}>
        {squad.description || t('common.noDescription')}
      </p>
      <div className="avatar-stack">
        {sample.map((m) => (
          <Avatar key={m.username} src={m.profile_image_url} name={m.display_name || m.username} size={28} />
        ))}
        {extra && <span className="muted small" style={{ marginLeft: 6 }}>{extra}</span>}
      </div>
      <div className="row gap">
        <Link to={`/squads/${squad.id}`} className="btn btn-sm">
          {t('explore.viewDetails')}
        </Link>
        <button className="btn btn-sm btn-primary push-right" disabled={!canRequestJoin(squad) || state.isLoading} onClick={() => setOpen(true)} data-testid="join-squad">
          {label}
        </button>
      </div>
      {error && (
        <div className="error-bar small">
          {error}{' '}
          <button className="link" onClick={() => setOpen(true)}>
            {t('common.tryAgain')}
          </button>
        </div>
      )}
      <JoinModal
        squad={squad}
        open={open}
        onClose={() => {
          setOpen(false);
          setError(null);
        }}
      />
    </div>
  );
}
