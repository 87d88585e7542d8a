import { useState, type FormEvent } from 'react';
import { useSession } from '../../core/store';
import { errorMessage } from '../../core/api';
import { useT } from '../../shared/i18n';
import { CommentItem } from './CommentItem';
import { useAddCommentMutation, useCommentsQuery, useDeleteCommentMutation } from './reviewsApi';

export function Comments({ reviewId, reviewAuthorId, onCount }: { reviewId: string; reviewAuthorId: string; onCount: (delta: number) => void }) {
  const { user } = useSession();
  const t = useT();
  const { data, isLoading, isError, refetch } = useCommentsQuery(reviewId);
  const [add, addState] = useAddCommentMutation();
  const [del] = useDeleteCommentMutation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const content = text.trim();
    if (!content) return;
    const r = await add({ reviewId, content });
    if ('error' in r) return setError(errorMessage(r.error, t('comment.addFailed')));
    setText('');
    setError(null);
    onCount(1);
  }

  return (
    <div className="comments" data-testid="comments">
      {isLoading && <p className="muted small">{t('comment.loading')}</p>}
      {isError && (
        <p className="error-text small">
          {t('comment.loadFailed')}{' '}
          <button className="link" onClick={() => refetch()}>
            {t('common.retry')}
          </button>
        </p>
      )}
      {data?.length === 0 && <p className="muted small">{t('comment.none')}</p>}
      {data?.map((c) => (
        <CommentItem
          key={c.id}
          comment={c}
          canEdit={c.userId === user?.id}
          canDelete={!!user && (c.userId === user.id || reviewAuthorId === user.id)}
          canReport={!!user && c.userId !== user.id}
          onDelete={async () => {
            const r = await del({ id: c.id, reviewId });
            if (!('error' in r)) onCount(-1);
          }}
        />
      ))}
      {user && (
        <form className="comment-form" onSubmit={submit}>
          <input placeholder={t('comment.placeholder')} aria-label={t('comment.placeholder')} value={text} maxLength={2000} onChange={(e) => setText(e.target.value)} />
          <button className="btn btn-sm btn-primary" disabled={!text.trim() || addState.isLoading}>
            {t('common.send')}
          </button>
        </form>
      )}
      {error && <p className="error-text small">{error}</p>}
    </div>
  );
}
