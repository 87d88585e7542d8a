/** One segment as the services' router reads it: percent-escapes decoded, or kept when undecodable. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A path already in routing form but for a trailing slash: lower case, no escapes, no empty segment. */
const PLAIN_PATH = /^(?:\/[a-z0-9._~!$&'()*+,;=:@-]+)*\/?$/;

/** The last URL asked about: a request's steps ask about the same URL a dozen times in a row. */
let last = { url: '', path: '/' };

/**
 * The path of a URL as the services route it (Fastify: case-insensitive, a trailing slash
 * ignored, escapes decoded; the proxy collapses repeated slashes): `/API//Auth/%6cogin/?x`
 * is `/api/auth/login`. Every choice the gateway makes by path (owner, public route, rate
 * limit, upload) reads this form, so a spelling the services accept cannot slip past one.
 * Lower-cased whole: ids are compared by pattern here, never looked up.
 */
export function routePath(url: string): string {
  if (url === last.url) return last.path;
  const query = url.indexOf('?');
  const raw = query === -1 ? url : url.slice(0, query);
  let path: string;
  if (PLAIN_PATH.test(raw)) path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw || '/';
  else path = `/${raw.split('/').filter(Boolean).map(decodeSegment).join('/')}`.toLowerCase();
  last = { url, path };
  return path;
}
