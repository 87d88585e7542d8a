import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ArrowLeft, ImagePlus, SmilePlus, X } from 'lucide-react';
import { useAppDispatch, useSession } from '../../core/store';
import { useSocket } from '../../core/socket';
import { errorCode, errorMessage } from '../../core/api';
import { Avatar, Spinner } from '../../shared/ui';
import { conversationName, messageTime, personName } from '../../shared/format';
import { useT } from '../../shared/i18n';
import type { ConversationView, MessageAttachmentDto, MessageView, ServerToClientPayloads } from '@app/contracts';
import { useUploadMediaMutation } from '../media/mediaApi';
import { MESSAGE_ATTACHMENTS_MAX as MAX_IMAGES, splitMentions } from '@app/contracts/runtime';
import {
  applyMessageChange,
  lastMessageOf,
  seenMessageId,
  messagesApi,
  REACTION_EMOJIS,
  sortConversations,
  useDeleteMessageMutation,
  useEditMessageMutation,
  useMarkConversationReadMutation,
  useMessagesQuery,
  useReactMutation,
  sendOverSocket,
  useSendMessageMutation,
} from './messagesApi';
import { useMentionSuggestions } from './MentionSuggestions';

export const AUTO_SCROLL_PX = 100;

/** True when the view is within 100 px of the bottom (part 2 §2). */
export function nearBottom(el: { scrollHeight: number; scrollTop: number; clientHeight: number }, threshold = AUTO_SCROLL_PX): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= threshold;
}

/** The message text with squad members' @handles as links to their profiles (squad chat only). */
function MessageText({ content, conversation }: { content: string; conversation: ConversationView }) {
  if (!conversation.squad_id) return <>{content}</>;
  const members = new Set(conversation.members.map((m) => m.username.toLowerCase()));
  return (
    <>
      {splitMentions(content).map((part, i) =>
        part.username && members.has(part.username) ? (
          <Link key={i} className="mention" to={`/user/${part.username}`} data-testid="mention">
            {part.text}
          </Link>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

export function ChatPane({ conversation }: { conversation: ConversationView }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const socket = useSocket();
  const dispatch = useAppDispatch();
  const msgs = useMessagesQuery(conversation.id);
  const [send] = useSendMessageMutation();
  const [sending, setSending] = useState(false);
  const [markRead] = useMarkConversationReadMutation();
  const [editMessage, editState] = useEditMessageMutation();
  const [deleteMessage] = useDeleteMessageMutation();
  const [react] = useReactMutation();
  const [upload, uploadState] = useUploadMediaMutation();
  const [images, setImages] = useState<MessageAttachmentDto[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const t = useT();
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [picker, setPicker] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [typing, setTyping] = useState<Record<string, string>>({});
  const scroller = useRef<HTMLDivElement>(null);
  const messageInput = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionSuggestions(
    conversation.members.filter((m) => m.id !== user?.id),
    text,
    setText,
    messageInput,
  );
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
    const onMessage = (m: MessageView) => {
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
    const onTyping = (p: ServerToClientPayloads['user-typing']) => {
      if (p.conversationId !== cid || p.userId === user?.id) return;
      // the socket names the typer by handle; show the member's display name when we know them
      const member = members.current?.find((x) => x.id === p.userId);
      setTyping((t) => ({ ...t, [p.userId]: member ? personName(member) : p.username }));
    };
    const onStop = (p: ServerToClientPayloads['user-stopped-typing']) => {
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
    if (typingSent.current && socket && user) socket.emit('typing-stop', { conversationId: conversation.id });
    typingSent.current = false;
  }

  function onType(v: string) {
    setText(v);
    if (!socket || !user) return;
    if (!typingSent.current && v.trim()) {
      socket.emit('typing-start', { conversationId: conversation.id });
      typingSent.current = true;
    }
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(stopTyping, 2500);
  }

  /** Uploads the picked images through the media service; the message carries their URLs. */
  async function attach(files: FileList | null) {
    const picked = [...(files ?? [])].slice(0, MAX_IMAGES - images.length);
    for (const file of picked) {
      const r = await upload(file);
      if ('error' in r) return setError(errorMessage(r.error, t('messages.uploadFailed')));
      setImages((list) => [...list, { url: r.data.url }]);
    }
    if (fileInput.current) fileInput.current.value = '';
  }

  async function submit() {
    const content = text.trim();
    // blocked when empty (no text and no image), while an upload or a send runs
    if ((!content && images.length === 0) || sending || uploadState.isLoading) return;
    stopTyping();
    stick.current = true;
    setSending(true);
    // One path for text and images: the socket (the images were uploaded first); HTTP only before a socket exists.
    const payload = { conversationId: conversation.id, content, ...(images.length > 0 && { attachments: images }) };
    const r = socket ? await sendOverSocket(socket, payload) : await send(payload);
    setSending(false);
    if ('error' in r) {
      return setError(errorCode(r.error) === 'RECIPIENT_DELETED' ? t('messages.recipientDeleted') : errorMessage(r.error, t('messages.sendFailed')));
    }
    setError(null);
    setText('');
    setImages([]);
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
          c.last_message = lastMessageOf(m);
          c.updated_at = m.created_at;
        }
        // immer: reorder the draft in place (returning a new list after mutating it throws)
        list.splice(0, list.length, ...sortConversations(list));
      }),
    );
  }

  /** The reply is the message as the server now has it (the push that follows changes nothing more). */
  function applyReply(m: MessageView) {
    dispatch(applyMessageChange(conversation.id, m.id, { kind: 'view', message: m }, user?.id));
  }

  async function saveEdit() {
    if (!editing || editState.isLoading) return;
    const content = editing.text.trim();
    if (!content) return;
    const r = await editMessage({ id: editing.id, content });
    if ('error' in r) return setError(errorMessage(r.error, t('messages.editFailed')));
    setError(null);
    setEditing(null);
    applyReply(r.data);
  }

  async function remove(id: string) {
    const r = await deleteMessage(id);
    if ('error' in r) return setError(errorMessage(r.error, t('messages.deleteFailed')));
    applyReply(r.data);
  }

  async function toggleReaction(m: MessageView, emoji: string) {
    setPicker(null);
    const add = !m.reactions?.some((x) => x.emoji === emoji && x.me);
    const r = await react({ id: m.id, emoji, add });
    if ('error' in r) return setError(errorMessage(r.error, t('messages.reactFailed')));
    applyReply(r.data);
  }

  function onEditKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void saveEdit();
    } else if (e.key === 'Escape') setEditing(null);
  }

  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift+Enter makes a new line
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  }

  const typers = Object.values(typing);
  const seenId = seenMessageId(msgs.data ?? [], conversation, user?.id);
  return (
    <div className="chat" data-testid="chat-pane">
      <div className="chat-head">
        {/* on a phone the list is hidden while a chat is open: this is the way back */}
        <button className="icon-btn mobile-only" aria-label={t('messages.back')} onClick={() => navigate('/messages')} data-testid="chat-back">
          <ArrowLeft size={20} aria-hidden="true" />
        </button>
        <Avatar src={conversation.other_members.length === 1 ? conversation.other_members[0].profile_image_url : null} name={name} size={36} />
        <div className="strong">{name}</div>
      </div>
      <div className="chat-scroll" ref={scroller} onScroll={(e) => (stick.current = nearBottom(e.currentTarget))} data-testid="chat-scroll">
        {msgs.isLoading && <Spinner />}
        {msgs.isError && (
          <div className="error-bar">
            {t('messages.loadFailed')}{' '}
            <button className="link" onClick={() => msgs.refetch()}>
              {t('common.tryAgain')}
            </button>
          </div>
        )}
        {msgs.data?.length === 0 && <p className="muted center">{t('messages.empty')}</p>}
        {msgs.data?.map((m) => {
          const mine = m.sender_id === user?.id;
          return (
            <div key={m.id} className={`msg ${mine ? 'mine' : ''}`} data-testid="message">
              {!mine && <Avatar src={m.sender?.profile_image_url} name={personName(m.sender)} size={26} />}
              <div>
                {!mine && conversation.other_members.length > 1 && <div className="muted small">{personName(m.sender)}</div>}
                {m.deleted ? (
                  <div className="bubble msg-deleted" data-testid="message-deleted">
                    {t('messages.deleted')}
                  </div>
                ) : editing?.id === m.id ? (
                  <div className="msg-edit">
                    <textarea
                      value={editing.text}
                      maxLength={2000}
                      autoFocus
                      aria-label={t('messages.edit')}
                      onChange={(e) => setEditing({ id: m.id, text: e.target.value })}
                      onKeyDown={onEditKey}
                      data-testid="message-edit-input"
                    />
                    <div className="row gap">
                      <button className="btn btn-primary btn-sm" disabled={!editing.text.trim() || editState.isLoading} onClick={() => void saveEdit()}>
                        {t('messages.save')}
                      </button>
                      <button className="btn btn-sm" onClick={() => setEditing(null)}>
                        {t('messages.cancel')}
                      </button>
                    </div>
                  </div>
                ) : (
                  m.content && (
                    <div className="bubble pre-wrap">
                      <MessageText content={m.content} conversation={conversation} />
                    </div>
                  )
                )}
                {!m.deleted && (m.attachments?.length ?? 0) > 0 && (
                  <div className="msg-images" data-testid="message-images">
                    {m.attachments.map((a) => (
                      <a key={a.url} href={a.url} target="_blank" rel="noopener noreferrer" title={t('messages.openImage')}>
                        <img className="msg-image" src={a.url} alt={a.alt ?? t('messages.image')} loading="lazy" data-testid="message-image" />
                      </a>
                    ))}
                  </div>
                )}
                {!m.deleted && (m.reactions?.length ?? 0) > 0 && (
                  <div className="reactions" data-testid="reactions">
                    {m.reactions.map((r) => (
                      <button
                        key={r.emoji}
                        className={`reaction-chip ${r.me ? 'me' : ''}`}
                        aria-pressed={r.me}
                        onClick={() => void toggleReaction(m, r.emoji)}
                        data-testid="reaction-chip"
                      >
                        {r.emoji} {r.count}
                      </button>
                    ))}
                  </div>
                )}
                <div className="msg-time">
                  {messageTime(m.created_at)}
                  {m.edited_at && !m.deleted && <span data-testid="message-edited"> · {t('messages.edited')}</span>}
                  {!m.deleted && editing?.id !== m.id && (
                    <span className="msg-actions">
                      <button className="link" aria-label={t('messages.react')} onClick={() => setPicker(picker === m.id ? null : m.id)} data-testid="react-button">
                        <SmilePlus size={14} aria-hidden="true" />
                      </button>
                      {mine && (
                        <>
                          <button className="link" onClick={() => setEditing({ id: m.id, text: m.content })} data-testid="edit-message">
                            {t('messages.edit')}
                          </button>
                          <button className="link" onClick={() => void remove(m.id)} data-testid="delete-message">
                            {t('messages.delete')}
                          </button>
                        </>
                      )}
                    </span>
                  )}
                </div>
                {m.id === seenId && (
                  <div className="msg-seen" data-testid="message-seen">
                    {t('messages.seen')}
                  </div>
                )}
                {picker === m.id && (
                  <div className="reaction-picker" role="group" aria-label={t('messages.react')} data-testid="reaction-picker">
                    {REACTION_EMOJIS.map((e) => (
                      <button key={e} className="link" onClick={() => void toggleReaction(m, e)}>
                        {e}
                      </button>
                    ))}
                  </div>
                )}
              </div>
            </div>
          );
        })}
      </div>
      <div className="typing" data-testid="typing-indicator">
        {typers.length === 1 ? t('messages.typingOne', { name: typers[0] }) : typers.length > 1 ? t('messages.typingMany', { names: typers.join(', ') }) : ''}
      </div>
      {error && (
        <div className="error-bar" style={{ margin: '0 0.7rem' }}>
          {error}
        </div>
      )}
      {images.length > 0 && (
        <div className="pending-images" data-testid="pending-images">
          {images.map((img, i) => (
            <div key={img.url} className="pending-image">
              <img src={img.url} alt="" />
              <input
                value={img.alt ?? ''}
                maxLength={200}
                placeholder={t('messages.altText')}
                aria-label={t('messages.altText')}
                onChange={(e) => setImages((list) => list.map((x, j) => (j === i ? { ...x, alt: e.target.value } : x)))}
              />
              <button className="icon-btn" aria-label={t('messages.removeImage')} onClick={() => setImages((list) => list.filter((_, j) => j !== i))}>
                <X size={14} aria-hidden="true" />
              </button>
            </div>
          ))}
        </div>
      )}
      <div className="chat-input">
        {mentions.list}
        <input
          ref={fileInput}
          type="file"
          accept="image/*"
          multiple
          hidden
          onChange={(e) => void attach(e.target.files)}
          data-testid="attach-input"
        />
        <button
          className="btn"
          type="button"
          disabled={images.length >= MAX_IMAGES || uploadState.isLoading}
          onClick={() => fileInput.current?.click()}
          data-testid="attach-button"
        >
          <ImagePlus size={16} aria-hidden="true" /> <span className="attach-label">{t('messages.attach')}</span>
        </button>
        <textarea
          ref={messageInput}
          rows={1}
          placeholder={t('messages.placeholder')}
          value={text}
          maxLength={2000}
          onChange={(e) => {
            onType(e.target.value);
            mentions.track(e.target);
          }}
          onClick={(e) => mentions.track(e.currentTarget)}
          onKeyDown={(e) => {
            if (!mentions.onKeyDown(e)) onKey(e);
          }}
          {...mentions.inputProps}
          onBlur={stopTyping}
          data-testid="message-input"
        />
        <button
          className="btn btn-primary"
          disabled={(!text.trim() && images.length === 0) || sending || uploadState.isLoading}
          onClick={() => void submit()}
        >
          {t('common.send')}
        </button>
      </div>
    </div>
  );
}
