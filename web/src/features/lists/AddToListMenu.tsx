import { ListPlus } from 'lucide-react';
import { errorMessage } from '../../core/api';
import { useAppDispatch } from '../../core/store';
import { pushToast } from '../../shared/toast';
import { useMenu } from '../../shared/useMenu';
import { useT } from '../../shared/i18n';
import { useAddToListMutation, useListsQuery } from './listsApi';
import { useListName } from './listName';

/** "Add to list": a small menu of the viewer's own lists, "Want to try" first (the server's order). */
/** `icon`: a round button over a product card's picture (the card's action row has no room and clips menus). */
export function AddToListMenu({ productId, icon = false }: { productId: string; icon?: boolean }) {
  const t = useT();
  const nameOf = useListName();
  const dispatch = useAppDispatch();
  const { open, setOpen, ref, close } = useMenu();
  // loaded on first opening, not once per card on a product grid
  const lists = useListsQuery(undefined, { skip: !open });
  const [add] = useAddToListMutation();
  const stop = (e: React.MouseEvent) => e.stopPropagation();

  async function addTo(id: string, name: string) {
    close();
    const r = await add({ id, productId });
    dispatch(
      'error' in r
        ? pushToast({ title: t('common.error'), message: errorMessage(r.error, t('lists.addFailed')), kind: 'error' })
        : pushToast({ title: t('lists.added', { name }), message: '', kind: 'success' }),
    );
  }

  return (
    <div className={icon ? 'list-menu list-menu-icon' : 'list-menu'} ref={ref} onClick={stop}>
      <button
        className={icon ? 'save-toggle' : 'btn'}
        aria-label={icon ? t('lists.addToList') : undefined}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="add-to-list"
      >
        <ListPlus size={icon ? 18 : 16} aria-hidden="true" />
        {!icon && ` ${t('lists.addToList')}`}
      </button>
      {open && (
        <div className="dropdown" role="menu" data-testid="add-to-list-menu">
          {lists.isLoading && <div className="dropdown-empty">{t('common.loading')}</div>}
          {lists.data?.map((list) => (
            <button key={list.id} role="menuitem" className="dropdown-item" onClick={() => void addTo(list.id, nameOf(list))}>
              {nameOf(list)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
