import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { errorMessage } from '../../core/api';
import { useAppDispatch, useSession } from '../../core/store';
import { pushToast } from '../../shared/toast';
import { Skeleton } from '../../shared/ui';
import { personName } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { ProductCard } from '../products/ProductCard';
import { useDeleteListMutation, useListQuery, useRemoveFromListMutation } from './listsApi';
import { ListForm } from './ListForm';
import { useListName } from './listName';

/** /lists/:id: a list and its products; its owner edits, deletes (not "Want to try") and removes products. */
export function ListPage() {
  const t = useT();
  const nameOf = useListName();
  const { id = '' } = useParams();
  const { user } = useSession();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [editing, setEditing] = useState(false);
  const { data: list, isLoading, isError } = useListQuery(id);
  const [remove] = useDeleteListMutation();
  const [removeItem] = useRemoveFromListMutation();

  if (isLoading) return <Skeleton lines={4} />;
  if (isError || !list)
    return (
      <div className="page">
        <div className="card empty" data-testid="list-missing">
          {t('lists.notFound')}
        </div>
      </div>
    );
  const own = user?.id === list.owner.id;
  const fail = (error: unknown) => dispatch(pushToast({ title: t('common.error'), message: errorMessage(error, t('lists.saveFailed')), kind: 'error' }));

  return (
    <div className="page" data-testid="list-page">
      <section className="card stack gap">
        <h1 className="page-title" data-testid="list-title">{nameOf(list)}</h1>
        <div className="muted small">
          <Link to={`/user/${list.owner.username}`}>{personName(list.owner)}</Link> · {t(`lists.${list.visibility}`)} ·{' '}
          {t('lists.items', { count: list.item_count })}
        </div>
        {list.description && <p>{list.description}</p>}
        {own &&
          (editing ? (
            <ListForm list={list} onDone={() => setEditing(false)} />
          ) : (
            <div className="row gap">
              <button className="btn" onClick={() => setEditing(true)} data-testid="edit-list">
                {t('lists.edit')}
              </button>
              {!list.is_default && (
                <button
                  className="btn btn-danger"
                  data-testid="delete-list"
                  onClick={async () => {
                    if (!window.confirm(t('lists.confirmDelete'))) return;
                    const r = await remove(list.id);
                    if ('error' in r) return fail(r.error);
                    navigate('/profile?tab=lists', { replace: true });
                  }}
                >
                  {t('lists.delete')}
                </button>
              )}
            </div>
          ))}
      </section>
      {list.items.length === 0 && <div className="card empty">{t('lists.empty')}</div>}
      <div className="grid grid-2">
        {list.items.map((item) => (
          <div key={item.product.id} className="stack gap" data-testid="list-item">
            <ProductCard product={item.product} />
            {item.note && <p className="muted small">{item.note}</p>}
            {own && (
              <button
                className="btn"
                onClick={async () => {
                  const r = await removeItem({ id: list.id, productId: item.product.id });
                  if ('error' in r) fail(r.error);
                }}
              >
                {t('lists.removeItem')}
              </button>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
