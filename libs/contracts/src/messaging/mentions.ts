/**
 * `@username` in a squad chat message (issue 22 §4): the handle alphabet of profile.dto, never
 * inside a word or an email address (`a@b.com` mentions nobody). The web renders mentions with the
 * same pattern (web/src/features/messages/mentions.ts: the SPA takes only types from contracts).
 */
const MENTION_PATTERN = /(?<![\w@.])@([A-Za-z0-9_]{3,24})(?![A-Za-z0-9_])/g;

/** The handles a message names, lower-cased (usernames are), each once, in order. */
export function mentionedUsernames(content: string): string[] {
  return [...new Set([...content.matchAll(MENTION_PATTERN)].map((m) => m[1].toLowerCase()))];
}
