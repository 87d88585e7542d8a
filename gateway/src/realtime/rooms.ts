/** Room of one member: every socket of theirs, on every gateway (Redis adapter). */
export const userRoom = (userId: string): string => `user:${userId}`;

/** Room of one conversation: sockets that joined it (typing indicators). */
export const conversationRoom = (conversationId: string): string => `conversation:${conversationId}`;

/** Ids from clients are opaque strings of bounded length; anything else is refused. */
export function isClientId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 64;
}

/** Accepts `"id"` or `{ [key]: "id" }` (the spec leaves the payload shape of join events open). */
export function idFrom(payload: unknown, key: string): string | undefined {
  const value = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[key] : payload;
  return isClientId(value) ? value : undefined;
}
