/**
 * `@username` in a squad chat message (issue 22 §4): the handle alphabet of profile.dto, never
 * inside a word or an email address (`a@b.com` mentions nobody). The web renders mentions with the
 * same pattern (splitMentions, through `@app/contracts/runtime`).
 */
const MENTION_PATTERN = /(?<![\w@.])@([A-Za-z0-9_]{3,24})(?![A-Za-z0-9_])/g;

/** The handles a message names, lower-cased (usernames are), each once, in order. */
export function mentionedUsernames(content: string): string[] {
  return [...new Set([...content.matchAll(MENTION_PATTERN)].map((m) => m[1].toLowerCase()))];
}

/** A piece of a message's text: plain, or a mention (`username` set, lower-cased). */
export interface MentionPart {
  text: string;
  username?: string;
}

/** The text cut into plain parts and mentions, keeping every character, for the chat to render. */
export function splitMentions(content: string): MentionPart[] {
  const parts: MentionPart[] = [];
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
