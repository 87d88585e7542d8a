import { Link, useNavigate } from 'react-router-dom';
import { useSession } from '../../core/store';
import { Avatar } from '../../shared/ui';
import { personName } from '../../shared/format';
import { FollowButton } from './FollowButton';
import { useSuggestionsQuery } from './peopleApi';

export function PeopleToFollow() {
  const { user } = useSession();
  const navigate = useNavigate();
  const { data, isLoading, isError } = useSuggestionsQuery(8);
  const people = (data ?? []).filter((p) => p.id !== user?.id).slice(0, 4);
  return (
    <section className="card panel" data-testid="people-panel">
      <h2 className="panel-title">People to Follow</h2>
      {isLoading && <p className="muted">Loading users...</p>}
      {isError && <p className="error-text">Failed to load users</p>}
      {!isLoading && !isError && people.length === 0 && <p className="muted">No users found</p>}
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
        View all suggestions
      </Link>
    </section>
  );
}
