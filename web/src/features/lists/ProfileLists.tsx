import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Lock, Users } from 'lucide-react';
import { Skeleton } from '../../shared/ui';
import { useT } from '../../shared/i18n';
import { useListsQuery } from './listsApi';
import { ListForm } from './ListForm';
import { useListName } from './listName';

/** The Lists tab of a profile: the member's lists the viewer may see; the owner also creates them here. */
export function ProfileLists({ userId, own }: { userId: string; own: boolean }) {
  const t = useT();
  const nameOf = useListName();
  const [creating, setCreating] = useState(false);
  const { data, isLoading, isError, refetch } = useListsQuery(own ? undefined : userId);
  if (isLoading) return <Skeleton lines={3} />;
  if (isError)
    return (
      <div className="error-bar">
        {t('lists.loadFailed')}{' '}
        <button className="link" onClick={() => refetch()}>
          {t('lists.retry')}
        </button>
      </div>
    );
  return (
    <div className="stack gap" data-testid="profile-lists">
      {own &&
        (creating ? (
          <ListForm onDone={() => setCreating(false)} />
        ) : (
          <button className="btn btn-primary" onClick={() => setCreating(true)} data-testid="new-list">
            {t('lists.create')}
          </button>
        ))}
      {data && data.length === 0 && <p className="muted">{t('lists.none')}</p>}
      {data?.map((list) => (
        <Link key={list.id} to={`/lists/${list.id}`} className="card plain-link row gap" data-testid="list-link">
          <strong>{nameOf(list)}</strong>
          <span className="muted small">{t('lists.items', { count: list.item_count })}</span>
          {list.visibility !== 'public' && (
            <span className="muted small push-right" title={t(`lists.${list.visibility}`)}>
              {list.visibility === 'private' ? <Lock size={14} aria-hidden="true" /> : <Users size={14} aria-hidden="true" />} {t(`lists.${list.visibility}`)}
            </span>
          )}
        </Link>
      ))}
    </div>
  );
}
