import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, normalize, resolve, sep } from 'node:path';
import send from 'send';
import serveStatic from 'serve-static';
import type { Step } from '../http/pipeline';
import { routePath } from '../proxy/route-path';
import { isCompressible, sendPrecompressed } from './precompressed';
import { appPageReader, appPathTest, sendAppPage } from './app-page';

/** Paths the gateway answers itself: never the SPA's index.html. */
const NOT_APP = ['/api', '/socket.io', '/health', '/metrics'];

function isAppRoute(path: string): boolean {
  return !NOT_APP.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

const NOT_BUILT = 'The web app is not built yet: run `npm run build:web`.';

/** The visitor's first pages, answered with the landing page already rendered in (web/build/prerender-landing.ts). */
const LANDING_PATHS = new Set(['/', '/login']);
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The file under `root` a URL names (escapes decoded, no way out of root, no dot-files), or undefined. */
function fileUnder(root: string, url: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(url.split('?', 1)[0]);
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  const file = join(root, normalize(path));
  if (!file.startsWith(root + sep) || file.slice(root.length).split(sep).some((part) => part.startsWith('.'))) return undefined;
  return file;
}

/**
 * Serves the built SPA: hashed assets cached for a year, every other non-API GET answered
 * with index.html so client-side routes survive a reload (history fallback). serve-static and
 * send are what Express's static and sendFile were: ranges, conditional GETs, HEAD. Text files
 * go out as the build's brotli or gzip copy when the client takes one (precompressed.ts).
 */
export function createSpaHandlers(webDir: string): Step<IncomingMessage>[] {
  const root = resolve(webDir);
  const index = join(root, 'index.html');
  const landing = join(root, 'landing.html');
  const cacheControlOf = (path: string) => (path.startsWith(join(root, 'assets') + sep) ? IMMUTABLE : 'no-cache');
  const precompressed: Step<IncomingMessage> = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = fileUnder(root, req.url ?? '/');
    if (file === undefined || !sendPrecompressed(req, res, file, cacheControlOf(file), next)) next();
  };
  const assets = serveStatic(root, {
    index: false,
    setHeaders: (res: ServerResponse, path: string) => {
      res.setHeader('Cache-Control', cacheControlOf(path));
      if (isCompressible(path)) res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  const indexHtml = appPageReader(webDir);
  const isAppPath = appPathTest(webDir);
  const fallback: Step<IncomingMessage> = async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isAppRoute(routePath(req.url ?? '/'))) return next();
    if (!existsSync(index)) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(NOT_BUILT) });
      res.end(NOT_BUILT);
      return;
    }
    // an address with nothing at it is a 404, with the app's page that says so (issue 43 §3)
    if (!(await isAppPath(req.url?.split('?', 1)[0] ?? '/'))) return sendAppPage(req, res, await indexHtml(), 404);
    const page = LANDING_PATHS.has(routePath(req.url ?? '/')) && existsSync(landing) ? landing : index;
    if (sendPrecompressed(req, res, page, 'no-cache', next)) return;
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    send(req, page).on('error', next).pipe(res);
  };
  return [precompressed, assets, fallback];
}
