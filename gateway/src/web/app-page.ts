import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { compressReply } from '../compression/reply-compression';

/** Read again only when the file changes (a new build in place). */
function cachedText(file: string): () => Promise<string> {
  let cached: { mtimeMs: number; text: string } | undefined;
  return async () => {
    const { mtimeMs } = await stat(file);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, text: await readFile(file, 'utf8') };
    return cached.text;
  };
}

/** The app's index.html under `webDir`. */
export function appPageReader(webDir: string): () => Promise<string> {
  return cachedText(join(resolve(webDir), 'index.html'));
}

/** A pattern of web/src/app/paths.ts (`:name` one segment) as a test of a path. */
function patternTest(pattern: string): (path: string) => boolean {
  const parts = pattern.split('/');
  return (path) => {
    const segments = path.split('/');
    // the router matches without regard to case, as the services do
    return segments.length === parts.length && parts.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i].toLowerCase()));
  };
}

/**
 * Whether an address is one of the app's (the patterns the web build writes to app-paths.json from
 * web/src/app/paths.ts); without that file (an older build) every address is.
 */
export function appPathTest(webDir: string): (path: string) => Promise<boolean> {
  const read = cachedText(join(resolve(webDir), 'app-paths.json'));
  let tests: { source: string; tests: Array<(path: string) => boolean> } | undefined;
  return async (path) => {
    const source = await read().catch(() => undefined);
    if (source === undefined) return true;
    if (tests?.source !== source) tests = { source, tests: (JSON.parse(source) as string[]).map(patternTest) };
    const plain = path.length > 1 ? path.replace(/\/+$/, '') : path;
    return tests.tests.some((test) => test(plain));
  };
}

/**
 * The app's page with a status of its own: 404 for an address with nothing at it (an unknown page,
 * a product, review or member that is not there), where the app draws its 404 screen.
 */
export function sendAppPage(req: IncomingMessage, res: ServerResponse, html: string, status: number): void {
  const page = Buffer.from(html);
  const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'content-length': String(page.length), 'cache-control': 'no-cache' };
  const body = compressReply(req.headers['accept-encoding'], page, headers);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
