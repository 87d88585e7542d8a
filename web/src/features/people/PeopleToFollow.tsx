import { Link, useNavigate } from 'react-router-dom';
import { useSession } from '../../core/store';
import { Avatar } from '../../shared/ui';
import { personName } from '../../shared/format';
import { FollowButton } from './FollowButton';
import { useSuggestionsQuery } from './peopleApi';
import { useT } from '../../shared/i18n';

export function PeopleToFollow() {
  const t = useT();
  const { user } = useSession();
  const navigate = useNavigate();
  const { data, isLoading, isError } = useSuggestionsQuery(8);
  const people = (data ?? []).filter((p) => p.id !== user?.id).slice(0, 4);
  return (
    <section className="card panel" data-testid="people-panel">
      <h2 className="panel-title">{t('people.title')}</h2>
      {isLoading && <p className="muted">{t('common.loadingUsers')}</p>}
      {isError && <p className="error-text">{t('common.usersFailed')}</p>}
      {!isLoading && !isError && people.length === 0 && <p className="muted">{t('people.none')}</p>}
      <ul className="plain-list">
        {people.map((p) => (
          <li key={p.id} className="person-row" onClick={() => navigate(`/user/${p.username}`)}>
            <Avatar src={p.profile_image_url} name={personName(p)} size={36} />
            <div className="person-text">
              <Link className="strong ellipsis block plain-link" to={`/user/${p.username}`} onClick={(e) => e.stopPropagation()}>
                {personName(p)}
              </Link>
              <div className="muted small ellipsis">@{p.username}</div>
            </div>
            <FollowButton userId={p.id} small />
          </li>
        ))}
      </ul>
      <Link className="link" to="/friends">
        {t('people.viewAll')}
      </Link>
    </section>
  );
}
