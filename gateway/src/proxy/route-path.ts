/** One segment as the services' router reads it: percent-escapes decoded, or kept when undecodable. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The path of a URL as the services route it (Fastify: case-insensitive, a trailing slash
 * ignored, escapes decoded; the proxy collapses repeated slashes): `/API//Auth/%6cogin/?x`
 * is `/api/auth/login`. Every choice the gateway makes by path (owner, public route, rate
 * limit, upload) reads this form, so a spelling the services accept cannot slip past one.
 * Lower-cased whole: ids are compared by pattern here, never looked up.
 */
export function routePath(url: string): string {
  const raw = url.split('?', 1)[0];
  const segments = raw.split('/').filter(Boolean).map(decodeSegment);
  return `/${segments.join('/')}`.toLowerCase();
}
