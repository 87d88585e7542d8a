/** At most one typing event per socket, conversation and kind in this window. */
export const TYPING_THROTTLE_MS = 500;

/** True when the event may go out now; records it. `seen` is the socket's own map. */
export function allowTyping(seen: Map<string, number>, key: string, now = Date.now()): boolean {
  const last = seen.get(key);
  if (last !== undefined && now - last < TYPING_THROTTLE_MS) return false;
  seen.set(key, now);
  return true;
}
