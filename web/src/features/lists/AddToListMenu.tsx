import { useState } from 'react';
import { Check, ListPlus } from 'lucide-react';
import { errorMessage } from '../../core/api';
import { useAppDispatch } from '../../core/store';
import { pushToast } from '../../shared/toast';
import { useMenu } from '../../shared/useMenu';
import { useT } from '../../shared/i18n';
import { useAddToListMutation, useListsHoldingQuery, useRemoveFromListMutation } from './listsApi';
import { useListName } from './listName';

/**
 * "Add to list": a small menu of the viewer's own lists, "Want to try" first (the server's order),
 * each checked when it holds the product; choosing a checked one takes the product out again. `icon`: a
 * round button over a product card's picture (the card's action row has no room and clips menus).
 */
export function AddToListMenu({ productId, icon = false }: { productId: string; icon?: boolean }) {
  const t = useT();
  const { open, setOpen, ref } = useMenu();
  const stop = (e: React.MouseEvent) => e.stopPropagation();
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
      {open && <ListChoices productId={productId} />}
    </div>
  );
}

/**
 * The open menu, mounted only while open: a product grid draws one button per card, and its lists'
 * query and changes would otherwise subscribe to the store once per card (loaded on first opening).
 */
function ListChoices({ productId }: { productId: string }) {
  const t = useT();
  const nameOf = useListName();
  const dispatch = useAppDispatch();
  const lists = useListsHoldingQuery(productId);
  const [add] = useAddToListMutation();
  const [remove] = useRemoveFromListMutation();
  // the list being changed: a second click waits for the first to land and the check to follow
  const [busy, setBusy] = useState<string | null>(null);

  // The menu stays open, so the check follows the click (the lists refetch after either change).
  async function toggle(id: string, name: string, holds: boolean) {
    setBusy(id);
    const r = await (holds ? remove({ id, productId }) : add({ id, productId }));
    setBusy(null);
    dispatch(
      'error' in r
        ? pushToast({ title: t('common.error'), message: errorMessage(r.error, t(holds ? 'lists.removeFailed' : 'lists.addFailed')), kind: 'error' })
        : pushToast({ title: t(holds ? 'lists.removed' : 'lists.added', { name }), message: '', kind: 'success' }),
    );
  }

  return (
    <div className="dropdown" role="menu" data-testid="add-to-list-menu">
      {lists.isLoading && <div className="dropdown-empty">{t('common.loading')}</div>}
      {lists.data?.map((list) => {
        const holds = Boolean(list.has_product);
        return (
          <button
            key={list.id}
            role="menuitemcheckbox"
            aria-checked={holds}
            className="dropdown-item"
            data-testid="add-to-list-item"
            disabled={busy === list.id || lists.isFetching}
            onClick={() => void toggle(list.id, nameOf(list), holds)}
          >
            <Check size={14} aria-hidden="true" style={{ visibility: holds ? 'visible' : 'hidden' }} />
            {nameOf(list)}
          </button>
        );
      })}
    </div>
  );
}
