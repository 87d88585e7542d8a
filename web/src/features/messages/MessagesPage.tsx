import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { MessageCircle } from 'lucide-react';
import { errorMessage } from '../../core/api';
import { Avatar, Spinner } from '../../shared/ui';
import { conversationName, conversationTime } from '../../shared/format';
import { sortConversations, useConversationsQuery, useCreateConversationMutation } from './messagesApi';
import { ChatPane } from './ChatPane';
import { NewMessageModal } from './NewMessageModal';
import { useT } from '../../shared/i18n';

export function MessagesPage() {
  const t = useT();
  const { conversationId } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const list = useConversationsQuery();
  const [create] = useCreateConversationMutation();
  const [search, setSearch] = useState('');
  const [modal, setModal] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);

  // /messages?to={userId} opens (or creates) the one-to-one conversation
  const to = params.get('to');
  useEffect(() => {
    if (!to) return;
    void (async () => {
      const r = await create([to]);
      setParams({}, { replace: true });
      if ('error' in r) setCreateError(errorMessage(r.error, t('messages.createFailed')));
      else navigate(`/messages/${r.data.id}`, { replace: true });
    })();
  }, [to]); // eslint-disable-line react-hooks/exhaustive-deps

  const conversations = useMemo(() => {
    const s = search.trim().toLowerCase();
    const all = sortConversations(list.data ?? []);
    if (!s) return all;
    return all.filter((c) =>
      [conversationName(c.other_members, c.name), ...c.other_members.map((m) => m.username ?? '')].some((n) => n.toLowerCase().includes(s)),
    );
  }, [list.data, search]);
  const active = (list.data ?? []).find((c) => c.id === conversationId) ?? null;

  async function start(ids: string[]): Promise<string | null> {
    const r = await create(ids);
    if ('error' in r) return errorMessage(r.error, t('messages.createFailed'));
    navigate(`/messages/${r.data.id}`);
    return null;
  }

  return (
    <div className={`messenger ${active ? 'has-active' : ''}`} data-testid="messages-page">
      <div className="conv-list">
        <div className="conv-list-head">
          <div className="row">
            <h1 className="panel-title" style={{ margin: 0, fontSize: '1.5rem' }}>{t('messages.title')}</h1>
            <button className="btn btn-sm btn-primary push-right" onClick={() => setModal(true)}>
              {t('messages.newMessage')}
            </button>
          </div>
          <input placeholder={t('messages.search')} value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="conv-scroll">
          {list.isLoading && <Spinner />}
          {list.isError && (
            <div className="error-bar" style={{ margin: '0.6rem' }}>
              {t('messages.conversationsFailed')}{' '}
              <button className="link" onClick={() => list.refetch()}>
                {t('common.tryAgain')}
              </button>
            </div>
          )}
          {createError && <div className="error-bar">{createError}</div>}
          {list.data && conversations.length === 0 && <p className="muted center small">{t('messages.none')}</p>}
          {conversations.map((c) => {
            const name = conversationName(c.other_members, c.name);
            const last = c.last_message;
            return (
              <button
                key={c.id}
                className={`conv-item ${c.id === conversationId ? 'active' : ''}`}
                onClick={() => navigate(`/messages/${c.id}`)}
                data-testid="conversation-item"
              >
                <Avatar src={c.other_members.length === 1 ? c.other_members[0].profile_image_url : null} name={name} size={42} />
                <div className="conv-main">
                  <div className="row gap">
                    <span className="strong ellipsis">{name}</span>
                    <span className="muted small push-right">{conversationTime(last?.created_at ?? c.updated_at)}</span>
                  </div>
                  <div className="row gap">
                    <span className="muted small ellipsis">{!last
                        ? t('messages.noMessages')
                        : last.deleted
                          ? t('messages.deleted')
                          : last.content || (last.images ? `📷 ${t('messages.photo')}` : '')}</span>
                    {(c.unread_count ?? 0) > 0 && (
                      <span className="badge badge-inline push-right" data-testid="conversation-unread">
                        {c.unread_count}
                      </span>
                    )}
                  </div>
                </div>
              </button>
            );
          })}
        </div>
      </div>
      {active ? (
        <ChatPane key={active.id} conversation={active} />
      ) : (
        <div className="chat center" style={{ justifyContent: 'center', alignItems: 'center' }}>
          <div className="empty">
            <MessageCircle className="empty-icon" size={40} aria-hidden="true" />
            <p className="muted">{t('messages.select')}</p>
            <button className="btn btn-primary" onClick={() => setModal(true)}>
              {t('messages.newMessage')}
            </button>
          </div>
        </div>
      )}
      <NewMessageModal open={modal} onClose={() => setModal(false)} onStart={start} />
    </div>
  );
}
