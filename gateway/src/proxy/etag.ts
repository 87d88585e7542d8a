import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { routePath } from './route-path';

/** The pages a member reloads most: the feed, a profile, a product (issue 23 §2). */
const CONDITIONAL = [/^\/api\/feed$/, /^\/api\/users\/profile\/[^/]+$/, /^\/api\/products\/[^/]+$/];

/** Whether the reply to this request gets an ETag and may be answered 304. */
export function isConditionalRoute(req: IncomingMessage): boolean {
  if (req.method !== 'GET') return false;
  const path = routePath(req.url ?? '/');
  return CONDITIONAL.some((pattern) => pattern.test(path));
}

/**
 * A weak validator over the viewer and the body: the same page seen by two members never
 * shares a tag, so a 304 is never given across members (a body naming no viewer included).
 */
export function weakEtag(viewer: string, body: Buffer): string {
  const hash = createHash('sha1').update(viewer).update('\0').update(body).digest('base64url');
  return `W/"${hash}"`;
}

/** If-None-Match against a tag, compared weakly (RFC 9110 §13.1.2): `*` or any listed tag. */
export function noneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
