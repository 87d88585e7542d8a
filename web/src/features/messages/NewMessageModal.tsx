import { useState } from 'react';
import { Check, X } from 'lucide-react';
import { useSession } from '../../core/store';
import { Avatar, Modal } from '../../shared/ui';
import { personName } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { useSearchUsersQuery } from '../people/peopleApi';

/** Picks the members of a new conversation: each user once, at least one (part 2 §2). */
export function NewMessageModal({ open, onClose, onStart }: { open: boolean; onClose: () => void; onStart: (ids: string[]) => Promise<string | null> }) {
  const { user } = useSession();
  const t = useT();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Array<{ id: string; name: string }>>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const users = useSearchUsersQuery(search.trim(), { skip: !open });
  const list = (users.data ?? []).filter((u) => u.id !== user?.id);
  const close = () => {
    setSearch('');
    setSelected([]);
    setError(null);
    onClose();
  };
  return (
    <Modal open={open} onClose={close} title={t('messages.newMessage')}>
      <div className="form" data-testid="new-message-modal">
        <input placeholder={t('messages.searchUsers')} aria-label={t('messages.searchUsers')} value={search} onChange={(e) => setSearch(e.target.value)} autoFocus />
        {selected.length > 0 && (
          <div className="chips">
            {selected.map((s) => (
              <span key={s.id} className="chip chip-on">
                {s.name}{' '}
                <button className="icon-btn small" aria-label={t('messages.removePicked', { name: s.name })} onClick={() => setSelected((l) => l.filter((x) => x.id !== s.id))}>
                  <X size={12} aria-hidden="true" />
                </button>
              </span>
            ))}
          </div>
        )}
        <div className="user-picker">
          {users.isFetching && list.length === 0 && <p className="muted small center">{t('messages.loadingUsers')}</p>}
          {!users.isFetching && list.length === 0 && <p className="muted small center">{t('messages.noUsers')}</p>}
          {list.map((u) => {
            const on = selected.some((s) => s.id === u.id);
            return (
              <button
                key={u.id}
                className={`dropdown-item ${on ? 'on' : ''}`}
                onClick={() =>
                  // a user can be selected only once
                  setSelected((l) => (on ? l.filter((x) => x.id !== u.id) : [...l, { id: u.id, name: personName(u) }]))
                }
              >
                <Avatar src={u.profile_image_url} name={personName(u)} size={30} />
                <span style={{ flex: 1 }}>
                  {personName(u)} <span className="muted small">@{u.username}</span>
                </span>
                {on && <Check size={16} aria-hidden="true" />}
              </button>
            );
          })}
        </div>
        {error && <div className="error-bar">{error}</div>}
        <div className="form-actions">
          <button className="btn" onClick={close}>
            {t('common.cancel')}
          </button>
          <button
            className="btn btn-primary"
            disabled={selected.length === 0 || busy}
            onClick={async () => {
              setBusy(true);
              const err = await onStart(selected.map((s) => s.id));
              setBusy(false);
              if (err) setError(err);
              else close();
            }}
          >
            {t('messages.startConversation')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
