/**
 * `@username` as the server finds it (libs/contracts/src/messaging/mentions.ts, which the SPA cannot
 * import at run time: it takes only types from contracts): not inside a word or an email address.
 */
const MENTION_PATTERN = /(?<![\w@.])@([A-Za-z0-9_]{3,24})(?![A-Za-z0-9_])/g;

/** Images per message (MESSAGE_ATTACHMENTS_MAX in contracts). */
export const MAX_IMAGES = 4;

/** The text cut into plain parts and mentions (`username` set, lower-cased), for the chat to render. */
export function splitMentions(content: string): { text: string; username?: string }[] {
  const parts: { text: string; username?: string }[] = [];
  let at = 0;
  for (const m of content.matchAll(MENTION_PATTERN)) {
    const start = m.index ?? 0;
    if (start > at) parts.push({ text: content.slice(at, start) });
    parts.push({ text: m[0], username: m[1].toLowerCase() });
    at = start + m[0].length;
  }
  if (at < content.length) parts.push({ text: content.slice(at) });
  return parts;
}
