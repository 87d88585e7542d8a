import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LinkCardView } from '@app/contracts';
import { appPageReader, sendAppPage } from '../web/app-page';
import type { Step } from '../http/pipeline';
import type { ServiceName } from '../proxy/routes';
import type { ServiceUrls } from '../proxy/service-proxy';
import { cardTags, firstScreen, withCard } from './card-tags';

/**
 * The app's pages a shared link names, and the service's public card read for each. The catalogue's
 * only without a query: its first card is the unfiltered list's.
 */
const CARD_PAGES: Array<{ pattern: RegExp; service: ServiceName; cardPath: (key: string) => string; bare?: boolean }> = [
  { pattern: /^\/product\/([^/]+)\/?$/, service: 'reviews', cardPath: (key) => `/api/cards/products/${key}` },
  { pattern: /^\/review\/([^/]+)\/?$/, service: 'reviews', cardPath: (key) => `/api/cards/reviews/${key}` },
  { pattern: /^\/user\/([^/]+)\/?$/, service: 'social', cardPath: (key) => `/api/cards/users/${key}` },
  { pattern: /^\/products\/?$/, service: 'reviews', cardPath: () => '/api/cards/catalogue', bare: true },
];

/** A link preview waits this long at most: a slow service leaves the page without its card. */
const CARD_TIMEOUT_MS = 2000;

/** The card a page's address names: its service and the card's path, or undefined for other pages. */
export function cardSource(url: string): { service: ServiceName; cardPath: string } | undefined {
  const [path, query] = url.split('?', 2);
  for (const { pattern, service, cardPath, bare } of CARD_PAGES) {
    const match = pattern.exec(path);
    if (!match || (bare && query)) continue;
    return { service, cardPath: cardPath(encodeURIComponent(safeDecode(match[1] ?? ''))) };
  }
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface LinkCardOptions {
  urls: ServiceUrls;
  webDir: string;
  /** The site's origin from configuration (siteOrigin): og:url and pictures' absolute URLs. */
  appOrigin: string;
}

/** What the card read found: the card, nothing there (404: a page with nothing at it), or no answer to go by. */
type CardRead = { card: LinkCardView } | 'missing' | undefined;

/**
 * GET /product/:slug, /review/:id, /user/:name and /products: the app's index.html with the Open Graph and Twitter
 * card tags of what the link names (issue 30 §4), so a link pasted into a chat unfurls. The card comes
 * from the owning service's public read with no token, which answers for public content only. What is
 * not there (unknown, deleted, hidden: the service's 404) gets the app's page with 404, where the app
 * draws its 404 screen (issue 43 §3); anything else (private, a service down) the plain app page from
 * the steps after this one, and the app decides for the viewer. The card follows the content: a review
 * hidden or a profile made private loses it at once (no-cache).
 */
export function createLinkCardPages({ urls, webDir, appOrigin }: LinkCardOptions): Step<IncomingMessage> {
  const indexHtml = appPageReader(webDir);
  const fetchCard = async (service: ServiceName, cardPath: string): Promise<CardRead> => {
    const base = urls[service];
    if (!base) return undefined;
    const reply = await fetch(`${base}${cardPath}`, { signal: AbortSignal.timeout(CARD_TIMEOUT_MS) }).catch(() => null);
    if (reply?.status === 404) return 'missing';
    if (!reply?.ok) return undefined;
    const body = (await reply.json().catch(() => null)) as { data?: LinkCardView } | null;
    return body?.data ? { card: body.data } : undefined;
  };
  return async (req: IncomingMessage, res: ServerResponse, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const url = req.url ?? '/';
    const path = url.split('?', 1)[0];
    const source = cardSource(url);
    if (!source) return next();
    const [read, html] = await Promise.all([fetchCard(source.service, source.cardPath), indexHtml().catch(() => undefined)]);
    if (!read || html === undefined) return next();
    if (read === 'missing') return sendAppPage(req, res, html, 404);
    // the app's page is 36 KB (its inline styles and screens' chunk list): compressed like the file it is built from
    sendAppPage(req, res, withCard(html, cardTags(read.card, appOrigin, path), firstScreen(read.card)), 200);
  };
}
