import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join, resolve } from 'node:path';
import send from 'send';
import serveStatic from 'serve-static';
import type { Step } from '../http/pipeline';
import { routePath } from '../proxy/route-path';

/** Paths the gateway answers itself: never the SPA's index.html. */
const NOT_APP = ['/api', '/socket.io', '/health', '/metrics'];

function isAppRoute(path: string): boolean {
  return !NOT_APP.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

const NOT_BUILT = 'The web app is not built yet: run `npm run build:web`.';

/**
 * Serves the built SPA: hashed assets cached for a year, every other non-API GET answered
 * with index.html so client-side routes survive a reload (history fallback). serve-static and
 * send are what Express's static and sendFile were: ranges, conditional GETs, HEAD.
 */
export function createSpaHandlers(webDir: string): Step<IncomingMessage>[] {
  const root = resolve(webDir);
  const index = join(root, 'index.html');
  const assets = serveStatic(root, {
    index: false,
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', path.includes(`${join(root, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const fallback: Step<IncomingMessage> = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isAppRoute(routePath(req.url ?? '/'))) return next();
    if (!existsSync(index)) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(NOT_BUILT) });
      res.end(NOT_BUILT);
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    send(req, index).on('error', next).pipe(res);
  };
  return [assets, fallback];
}
