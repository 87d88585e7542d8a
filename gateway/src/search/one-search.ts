import type { IncomingMessage } from 'node:http';
import { ReviewsSearchPart, SEARCH_GROUP_DEFAULT, SearchResultsView } from '@app/contracts';
import type { Step } from '../http/pipeline';
import { sendEnvelopeError, sendJson } from '../proxy/envelope-reply';
import { routePath } from '../proxy/route-path';
import { ServiceName } from '../proxy/routes';
import { ServiceUrls } from '../proxy/service-proxy';

/** A service's answer to one part: its status and its parsed envelope (null when it did not answer). */
export interface PartReply {
  status: number;
  body: { success?: boolean; data?: unknown } | null;
}

export type FetchPart = (service: ServiceName, pathAndQuery: string) => Promise<PartReply>;

/**
 * Where each group comes from (docs/decisions/search.md). The reviews part validates `q` and
 * `limit` first, so its field errors are the reply to bad input; people and squads reuse the
 * searches their services already answer with their own visibility rules.
 */
function partPaths(q: string, limit: string | null): Record<'reviews' | 'social' | 'squads', string> {
  // Every part gets the same group size; the reviews part refuses a bad one with its field error.
  const qs = (params: Record<string, string>) => new URLSearchParams({ ...params, limit: limit ?? String(SEARCH_GROUP_DEFAULT) }).toString();
  return {
    reviews: `/api/reviews/search?${qs({ q })}`,
    social: `/api/users/search?${qs({ search: q })}`,
    squads: `/api/squads/discover?${qs({ search: q })}`,
  };
}

export type SearchOutcome = { ok: true; data: SearchResultsView } | { ok: false; reply: PartReply };

/**
 * GET /api/search?q=&limit= (issue 21 §5): asks the parts in parallel with the viewer's
 * token and joins the groups. A part's 4xx (bad q, a revoked token) is the reply; a part that
 * does not answer makes it a 503, since a missing group would read as "no matches".
 */
export async function oneSearch(fetchPart: FetchPart, q: string, limit: string | null): Promise<SearchOutcome> {
  const paths = partPaths(q, limit);
  const [reviews, users, squads] = await Promise.all([
    fetchPart('reviews', paths.reviews),
    fetchPart('social', paths.social),
    fetchPart('squads', paths.squads),
  ]);
  const failed = [reviews, users, squads].find((r) => r.status >= 400 && r.status < 500) ?? [reviews, users, squads].find((r) => r.status !== 200 || !r.body);
  if (failed) return { ok: false, reply: failed };
  const part = reviews.body!.data as ReviewsSearchPart;
  return {
    ok: true,
    data: {
      products: part.products,
      users: users.body!.data as SearchResultsView['users'],
      reviews: part.reviews,
      squads: squads.body!.data as SearchResultsView['squads'],
      // a reviews service from before the Tags group sends none
      tags: part.tags ?? [],
    },
  };
}

/** The gateway step: the fetch of a part with the caller's authorization and the upstream timeout. */
export function createOneSearch(urls: ServiceUrls, timeoutMs: number): Step<IncomingMessage> {
  return async (req, res, next) => {
    const url = req.url ?? '/';
    if (req.method !== 'GET' || routePath(url) !== '/api/search') return next();
    const authorization = req.headers.authorization ?? '';
    const query = new URL(url, 'http://gateway').searchParams;
    const fetchPart: FetchPart = async (service, pathAndQuery) => {
      const base = urls[service];
      if (!base) return { status: 503, body: null };
      const reply = await fetch(`${base}${pathAndQuery}`, { headers: { authorization }, signal: AbortSignal.timeout(timeoutMs) }).catch(() => null);
      if (!reply) return { status: 503, body: null };
      return { status: reply.status, body: (await reply.json().catch(() => null)) as PartReply['body'] };
    };
    try {
      const outcome = await oneSearch(fetchPart, query.get('q') ?? '', query.get('limit'));
      if (outcome.ok) sendJson(req, res, { success: true, data: outcome.data });
      else if (outcome.reply.status >= 400 && outcome.reply.status < 500 && outcome.reply.body) sendJson(req, res, outcome.reply.body, {}, outcome.reply.status);
      else sendEnvelopeError(res, 503, 'Search is unavailable');
    } catch (err) {
      next(err);
    }
  };
}
