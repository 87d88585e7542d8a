import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useSession } from '../../core/store';
import { Avatar } from '../../shared/ui';
import { personName } from '../../shared/format';
import { FollowButton } from '../people/FollowButton';
import { useSearchUsersQuery, useSuggestionsQuery } from '../people/peopleApi';
import { useT } from '../../shared/i18n';

export function FriendsPage() {
  const t = useT();
  const { user } = useSession();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(input.trim()), 250);
    return () => clearTimeout(t);
  }, [input]);
  const suggestions = useSuggestionsQuery(20, { skip: !!search });
  const found = useSearchUsersQuery(search, { skip: !search });
  const q = search ? found : suggestions;
  const people = (q.data ?? []).filter((p) => p.id !== user?.id);
  return (
    <div className="page" data-testid="friends-page">
      <h1 className="page-title">{t('nav.friends')}</h1>
      <input placeholder={t('friends.search')} value={input} onChange={(e) => setInput(e.target.value)} style={{ marginBottom: '1rem' }} />
      <section className="card">
        <h2 className="panel-title">{t('friends.mayKnow')}</h2>
        {q.isLoading && <p className="muted">{t('common.loadingUsers')}</p>}
        {q.isError && <p className="error-text">{t('common.usersFailed')}</p>}
        {!q.isLoading && !q.isError && people.length === 0 && <p className="muted">{t('friends.none')}</p>}
        {people.map((p) => (
          <div key={p.id} className="person-item" style={{ cursor: 'pointer' }} onClick={() => navigate(`/user/${p.username}`)}>
            <Avatar src={p.profile_image_url} name={personName(p)} size={44} />
            <div style={{ flex: 1, minWidth: 0 }}>
              <Link className="strong block plain-link" to={`/user/${p.username}`} onClick={(e) => e.stopPropagation()}>
                {personName(p)}
              </Link>
              <div className="muted small">@{p.username}</div>
              {p.bio && <div className="small ellipsis">{p.bio}</div>}
            </div>
            <FollowButton userId={p.id} small />
          </div>
        ))}
      </section>
    </div>
  );
}
