import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useSession } from '../../app/store';
import { useSocket } from '../../app/socket';
import { errorMessage } from '../../app/api';
import { Avatar, Modal, Spinner } from '../../shared/ui';
import { conversationName, conversationTime, messageTime, personName } from '../../shared/format';
import type { Conversation, Message } from '../../shared/types';
import { useSearchUsersQuery } from '../people/peopleApi';
import {
  messagesApi,
  sortConversations,
  useConversationsQuery,
  useCreateConversationMutation,
  useMarkConversationReadMutation,
  useMessagesQuery,
  useSendMessageMutation,
} from './messagesApi';

export const AUTO_SCROLL_PX = 100;

/** True when the view is within 100 px of the bottom (part 2 §2). */
export function nearBottom(el: { scrollHeight: number; scrollTop: number; clientHeight: number }, threshold = AUTO_SCROLL_PX): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= threshold;
}

function NewMessageModal({ open, onClose, onStart }: { open: boolean; onClose: () => void; onStart: (ids: string[]) => Promise<string | null> }) {
  const { user } = useSession();
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
    <Modal open={open} onClose={close} title="New Message">
      <div className="form" data-testid="new-message-modal">
        <input placeholder="Search users..." value={search} onChange={(e) => setSearch(e.target.value)} autoFocus />
        {selected.length > 0 && (
          <div className="chips">
            {selected.map((s) => (
              <span key={s.id} className="chip chip-on">
                {s.name}{' '}
                <button className="icon-btn small" aria-label={`Remove ${s.name}`} onClick={() => setSelected((l) => l.filter((x) => x.id !== s.id))}>
                  ×
                </button>
              </span>
            ))}
          </div>
        )}
        <div className="user-picker">
          {users.isFetching && list.length === 0 && <p className="muted small center">Loading users...</p>}
          {!users.isFetching && list.length === 0 && <p className="muted small center">No users found</p>}
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
                {on && '✓'}
              </button>
            );
          })}
        </div>
        {error && <div className="error-bar">{error}</div>}
        <div className="form-actions">
          <button className="btn" onClick={close}>
            Cancel
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
            Start Conversation
          </button>
        </div>
      </div>
    </Modal>
  );
}

function ChatPane({ conversation }: { conversation: Conversation }) {
  const { user } = useSession();
  const socket = useSocket();
  const dispatch = useAppDispatch();
  const msgs = useMessagesQuery(conversation.id);
  const [send, sendState] = useSendMessageMutation();
  const [markRead] = useMarkConversationReadMutation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [typing, setTyping] = useState<Record<string, string>>({});
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const typingSent = useRef(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const name = conversationName(conversation.other_members, conversation.name);
  // read by the socket handlers without re-joining the room whenever the list refetches
  const members = useRef(conversation.other_members);
  members.current = conversation.other_members;

  // join the conversation room, receive live messages and typing indicators
  useEffect(() => {
    if (!socket) return;
    const cid = conversation.id;
    const join = () => socket.emit('join-conversation', cid);
    join();
    socket.on('connect', join);
    const onMessage = (m: Message) => {
      if (m.conversation_id !== cid) return;
      if (scroller.current) stick.current = nearBottom(scroller.current);
      dispatch(
        messagesApi.util.updateQueryData('messages', cid, (list) => {
          if (!list.some((x) => x.id === m.id)) list.push(m);
        }),
      );
      setTyping((t) => {
        const n = { ...t };
        delete n[m.sender_id];
        return n;
      });
      if (m.sender_id !== user?.id) void markRead(cid);
    };
    const onTyping = (p: { conversationId: string; userId: string; username?: string }) => {
      if (p.conversationId !== cid || p.userId === user?.id) return;
      // the socket names the typer by handle; show the member's display name when we know them
      const member = members.current?.find((x) => x.id === p.userId);
      setTyping((t) => ({ ...t, [p.userId]: member ? personName(member) : (p.username ?? 'Someone') }));
    };
    const onStop = (p: { conversationId: string; userId: string }) => {
      if (p.conversationId !== cid) return;
      setTyping((t) => {
        const n = { ...t };
        delete n[p.userId];
        return n;
      });
    };
    socket.on('new-message', onMessage);
    socket.on('user-typing', onTyping);
    socket.on('user-stopped-typing', onStop);
    return () => {
      socket.emit('leave-conversation', cid);
      socket.off('connect', join);
      socket.off('new-message', onMessage);
      socket.off('user-typing', onTyping);
      socket.off('user-stopped-typing', onStop);
      setTyping({});
    };
  }, [socket, conversation.id, user?.id, dispatch, markRead]);

  useEffect(() => {
    if (conversation.unread_count) void markRead(conversation.id);
  }, [conversation.id]); // eslint-disable-line react-hooks/exhaustive-deps

  // scroll to the newest message when the user was within 100 px of the bottom
  useEffect(() => {
    const el = scroller.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [msgs.data?.length, Object.keys(typing).length]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    stick.current = true;
  }, [conversation.id]);

  function stopTyping() {
    if (typingTimer.current) clearTimeout(typingTimer.current);
    if (typingSent.current && socket && user) socket.emit('typing-stop', { conversationId: conversation.id, userId: user.id });
    typingSent.current = false;
  }

  function onType(v: string) {
    setText(v);
    if (!socket || !user) return;
    if (!typingSent.current && v.trim()) {
      socket.emit('typing-start', { conversationId: conversation.id, userId: user.id, username: user.display_name || user.username });
      typingSent.current = true;
    }
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(stopTyping, 2500);
  }

  async function submit() {
    const content = text.trim();
    // blocked when empty, without an active conversation, or while a send runs
    if (!content || sendState.isLoading) return;
    stopTyping();
    stick.current = true;
    const r = await send({ conversationId: conversation.id, content });
    if ('error' in r) return setError(errorMessage(r.error, 'Failed to send message'));
    setError(null);
    setText('');
    const m = r.data;
    if (m)
      dispatch(
        messagesApi.util.updateQueryData('messages', conversation.id, (list) => {
          if (!list.some((x) => x.id === m.id)) list.push(m);
        }),
      );
    dispatch(
      messagesApi.util.updateQueryData('conversations', undefined, (list) => {
        const c = list.find((x) => x.id === conversation.id);
        if (c && m) {
          c.last_message = { id: m.id, content: m.content, sender: m.sender, created_at: m.created_at };
          c.updated_at = m.created_at;
        }
        // immer: reorder the draft in place (returning a new list after mutating it throws)
        list.splice(0, list.length, ...sortConversations(list));
      }),
    );
  }

  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift+Enter makes a new line
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  }

  const typers = Object.values(typing);
  return (
    <div className="chat" data-testid="chat-pane">
      <div className="chat-head">
        <Avatar src={conversation.other_members.length === 1 ? conversation.other_members[0].profile_image_url : null} name={name} size={36} />
        <div className="strong">{name}</div>
      </div>
      <div className="chat-scroll" ref={scroller} onScroll={(e) => (stick.current = nearBottom(e.currentTarget))} data-testid="chat-scroll">
        {msgs.isLoading && <Spinner />}
        {msgs.isError && (
          <div className="error-bar">
            Failed to load messages{' '}
            <button className="link" onClick={() => msgs.refetch()}>
              Try Again
            </button>
          </div>
        )}
        {msgs.data?.length === 0 && <p className="muted center">No messages yet. Say hi!</p>}
        {msgs.data?.map((m) => {
          const mine = m.sender_id === user?.id;
          return (
            <div key={m.id} className={`msg ${mine ? 'mine' : ''}`} data-testid="message">
              {!mine && <Avatar src={m.sender?.profile_image_url} name={personName(m.sender)} size={26} />}
              <div>
                {!mine && conversation.other_members.length > 1 && <div className="muted small">{personName(m.sender)}</div>}
                <div className="bubble pre-wrap">{m.content}</div>
                <div className="msg-time">{messageTime(m.created_at)}</div>
              </div>
            </div>
          );
        })}
      </div>
      <div className="typing" data-testid="typing-indicator">
        {typers.length === 1 ? `${typers[0]} is typing...` : typers.length > 1 ? `${typers.join(', ')} are typing...` : ''}
      </div>
      {error && (
        <div className="error-bar" style={{ margin: '0 0.7rem' }}>
          {error}
        </div>
      )}
      <div className="chat-input">
        <textarea
          rows={1}
          placeholder="Type a message..."
          value={text}
          maxLength={2000}
          onChange={(e) => onType(e.target.value)}
          onKeyDown={onKey}
          onBlur={stopTyping}
          data-testid="message-input"
        />
        <button className="btn btn-primary" disabled={!text.trim() || sendState.isLoading} onClick={() => void submit()}>
          Send
        </button>
      </div>
    </div>
  );
}

export function MessagesPage() {
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
      if ('error' in r) setCreateError(errorMessage(r.error, 'Failed to create conversation'));
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
    if ('error' in r) return errorMessage(r.error, 'Failed to create conversation');
    navigate(`/messages/${r.data.id}`);
    return null;
  }

  return (
    <div className={`messenger ${active ? 'has-active' : ''}`} data-testid="messages-page">
      <div className="conv-list">
        <div className="conv-list-head">
          <div className="row">
            <h2 style={{ margin: 0 }}>Messages</h2>
            <button className="btn btn-sm btn-primary push-right" onClick={() => setModal(true)}>
              New Message
            </button>
          </div>
          <input placeholder="Search conversations..." value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="conv-scroll">
          {list.isLoading && <Spinner />}
          {list.isError && (
            <div className="error-bar" style={{ margin: '0.6rem' }}>
              Failed to load conversations{' '}
              <button className="link" onClick={() => list.refetch()}>
                Try Again
              </button>
            </div>
          )}
          {createError && <div className="error-bar">{createError}</div>}
          {list.data && conversations.length === 0 && <p className="muted center small">No conversations yet</p>}
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
                    <span className="muted small ellipsis">{last?.content ?? 'No messages yet'}</span>
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
            <div className="empty-icon">💬</div>
            <p className="muted">Select a conversation or start a new one.</p>
            <button className="btn btn-primary" onClick={() => setModal(true)}>
              New Message
            </button>
          </div>
        </div>
      )}
      <NewMessageModal open={modal} onClose={() => setModal(false)} onStart={start} />
    </div>
  );
}
