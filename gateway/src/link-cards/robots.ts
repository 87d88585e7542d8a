import type { IncomingMessage } from 'node:http';
import type { Step } from '../http/pipeline';

/**
 * Crawlers may read the public pages (the landing page, profiles, products and reviews, which carry
 * link cards); the API and the socket are no pages.
 */
export const ROBOTS_TXT = ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /socket.io/', ''].join('\n');

/** GET /robots.txt: the rules above as text (it was answered with the app's HTML). */
export const robotsTxt: Step<IncomingMessage> = (req, res, next) => {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || (req.url ?? '/').split('?', 1)[0] !== '/robots.txt') return next();
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(ROBOTS_TXT), 'Cache-Control': 'public, max-age=86400' });
  res.end(req.method === 'HEAD' ? undefined : ROBOTS_TXT);
};
