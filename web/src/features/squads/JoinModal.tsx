import { useState } from 'react';
import { errorMessage } from '../../core/api';
import { Modal } from '../../shared/ui';
import { JOIN_MESSAGE_MAX, useRequestJoinMutation } from './squadsApi';
import { useT } from '../../shared/i18n';

export function JoinModal({ squad, open, onClose }: { squad: { id: string; name: string }; open: boolean; onClose: () => void }) {
  const t = useT();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [requestJoin, state] = useRequestJoinMutation();
  const close = () => {
    setMessage('');
    setError(null);
    onClose();
  };
  async function send() {
    const trimmed = message.trim();
    // the message is optional and sent only when non-empty after trimming
    const r = await requestJoin({ id: squad.id, message: trimmed || undefined });
    if ('error' in r) return setError(errorMessage(r.error, t('squads.joinFailed')));
    close();
  }
  return (
    <Modal open={open} onClose={close} title={t('squads.joinTitle', { name: squad.name })}>
      <div className="form" data-testid="join-modal">
        <p>{t('squads.joinHint')}</p>
        <textarea
          rows={3}
          placeholder={t('squads.joinPlaceholder')}
          value={message}
          maxLength={JOIN_MESSAGE_MAX}
          onChange={(e) => setMessage(e.target.value.slice(0, JOIN_MESSAGE_MAX))}
        />
        <div className="muted small" style={{ textAlign: 'right' }}>
          {message.length}/{JOIN_MESSAGE_MAX}
        </div>
        {error && <div className="error-bar">{error}</div>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={close}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-primary" disabled={state.isLoading} onClick={send}>
            {state.isLoading ? t('squads.sending') : t('squads.sendRequest')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
