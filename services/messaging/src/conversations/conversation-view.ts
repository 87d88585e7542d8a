import { ConversationView, UserCard } from '@app/contracts';
import { ConversationDoc } from './conversation.collection';

/** The list row as `viewerId` sees it; `cards` holds every member and last sender. */
export function toConversationView(
  doc: ConversationDoc,
  viewerId: string,
  cards: Map<string, UserCard>,
  unreadCount: number,
  otherReadAt: string | null = null,
): ConversationView {
  const card = (id: string) => cards.get(id) as UserCard;
  const members = doc.member_ids.map(card);
  const last = doc.last_message;
  return {
    id: doc._id,
    name: doc.name,
    is_group: doc.is_group,
    squad_id: doc.squad_id ?? null,
    other_members: members.filter((m) => m.id !== viewerId),
    members,
    last_message: last && {
      id: last.id,
      content: last.content,
      sender: card(last.sender_id),
      created_at: last.created_at,
      deleted: last.deleted === true,
      images: last.deleted ? 0 : (last.images ?? 0),
    },
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    unread_count: unreadCount,
    other_read_at: doc.is_group ? null : otherReadAt,
  };
}

/** Every user id a set of conversation rows will show. */
export function cardIdsOf(docs: readonly ConversationDoc[]): string[] {
  return docs.flatMap((d) => (d.last_message ? [...d.member_ids, d.last_message.sender_id] : d.member_ids));
}
