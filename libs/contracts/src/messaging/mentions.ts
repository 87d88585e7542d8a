/**
 * `@username` in a squad chat message (issue 22 §4): the handle alphabet of profile.dto, never
 * inside a word or an email address (`a@b.com` mentions nobody).
 */
const MENTION_PATTERN = /(?<![\w@.])@([A-Za-z0-9_]{3,24})(?![A-Za-z0-9_])/g;

/** The handles a message names, lower-cased (usernames are), each once, in order. */
export function mentionedUsernames(content: string): string[] {
  return [...new Set([...content.matchAll(MENTION_PATTERN)].map((m) => m[1].toLowerCase()))];
}

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
