import { Link } from 'react-router-dom';
import { useAppDispatch } from '../../core/store';
import { errorMessage } from '../../core/api';
import { Avatar } from '../../shared/ui';
import { personName } from '../../shared/format';
import { pushToast } from '../../shared/toast';
import { useT } from '../../shared/i18n';
import { useMuteMutation, useMutesQuery } from '../people/peopleApi';

/** Settings: the members the user muted (server-side, issue 22 §1), each with Unmute. */
export function MutedAccounts() {
  const t = useT();
  const dispatch = useAppDispatch();
  const { data, isLoading, isError } = useMutesQuery();
  const [mute, muteState] = useMuteMutation();

  async function unmute(id: string) {
    const r = await mute({ id, mute: false });
    if ('error' in r) dispatch(pushToast({ title: t('settings.mutes'), message: errorMessage(r.error, t('settings.unmuteFailed')), kind: 'error' }));
  }

  return (
    <div className="form" data-testid="settings-mutes">
      <h2>{t('settings.mutes')}</h2>
      <p className="muted small">{t('settings.mutesHint')}</p>
      {isLoading && <p className="muted">{t('common.loading')}</p>}
      {isError && <p className="error-text">{t('settings.mutesLoadFailed')}</p>}
      {data && data.length === 0 && <p className="muted">{t('settings.mutesEmpty')}</p>}
      <ul className="plain-list">
        {(data ?? []).map((p) => (
          <li key={p.id} className="person-row">
            <Avatar src={p.profile_image_url} name={personName(p)} size={36} />
            <div className="person-text">
              <Link className="strong ellipsis block plain-link" to={`/user/${p.username}`}>
                {personName(p)}
              </Link>
              <div className="muted small ellipsis">@{p.username}</div>
            </div>
            <button className="btn btn-sm" disabled={muteState.isLoading} onClick={() => void unmute(p.id)}>
              {t('settings.unmute')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
