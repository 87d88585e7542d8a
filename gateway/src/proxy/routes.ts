import { routePath } from './route-path';

/** Which service owns which /api prefix (ARCHITECTURE §1). */
export const ROUTE_TABLE = {
  auth: ['auth'],
  social: ['users', 'follows'],
  reviews: ['products', 'reviews', 'likes', 'comments', 'media', 'saved', 'lists', 'feed', 'activities', 'trending', 'tags', 'filters', 'moderation'],
  squads: ['squads'],
  messaging: ['messages'],
  notifications: ['notifications'],
} as const;

export type ServiceName = keyof typeof ROUTE_TABLE;

export const SERVICE_NAMES = Object.keys(ROUTE_TABLE) as ServiceName[];

const OWNER = new Map<string, ServiceName>(
  SERVICE_NAMES.flatMap((service) => ROUTE_TABLE[service].map((prefix) => [prefix, service] as const)),
);

/**
 * The one route that leaves its prefix's owner: deleting the account sits with the member's
 * other /users/me routes, but the password it checks lives in auth (issue 20 §5).
 */
const ROUTE_EXCEPTIONS: readonly { method: string; path: string; service: ServiceName }[] = [{ method: 'DELETE', path: '/api/users/me', service: 'auth' }];

/** The service owning `/api/<prefix>/...` (for `method`, when given), or undefined for an unknown prefix. */
export function ownerOf(path: string, method?: string): ServiceName | undefined {
  const exception = ROUTE_EXCEPTIONS.find((route) => route.method === method && route.path === routePath(path));
  if (exception) return exception.service;
  const [, api, prefix] = routePath(path).split('/');
  return api === 'api' ? OWNER.get(prefix) : undefined;
}

/** Sign-up, sign-in (its second step too) and password reset: made before the member has a token. */
const PUBLIC_AUTH = new Set(['/api/auth/login', '/api/auth/register', '/api/auth/2fa/verify', '/api/auth/password-reset', '/api/auth/password-reset/confirm']);

/**
 * What a shared link shows a visitor (issue 43 §3, docs/decisions/gateway.md): a product, reviews
 * (the service asks for a product or a member to be named), one review, a profile. The services
 * answer for public content only.
 */
const VISITOR_READS = [/^\/api\/products\/[^/]+$/, /^\/api\/reviews$/, /^\/api\/reviews\/[^/]+$/, /^\/api\/users\/profile\/[^/]+$/];

/** A shared link's read: a visitor's without a token, a member's with one (which must then stand). */
export function isVisitorRead(method: string, path: string): boolean {
  const p = routePath(path);
  return (method === 'GET' || method === 'HEAD') && VISITOR_READS.some((read) => read.test(p)) && !p.split('/').some((s) => s === '.' || s === '..');
}

/** Routes a visitor reaches without a token; everything else under /api needs one. */
export function isPublicRoute(method: string, path: string): boolean {
  const p = routePath(path);
  if (method === 'POST' && PUBLIC_AUTH.has(p)) return true;
  if (isVisitorRead(method, path)) return true;
  // Images are fetched by <img> tags, which cannot send a bearer token.
  if ((method === 'GET' || method === 'HEAD') && /^\/api\/media\/[^/]+$/.test(p)) return true;
  // The merged OpenAPI document and its page: reference material, no member data.
  if ((method === 'GET' || method === 'HEAD') && (p === '/api/docs' || p.startsWith('/api/docs/')) && !p.includes('..')) return true;
  return false;
}
