import { isPublicRoute, isVisitorRead, ownerOf } from './routes';

describe('gateway route table', () => {
  it.each([
    ['/api/auth/login', 'auth'],
    ['/api/users/profile/ayse?_t=1', 'social'],
    ['/api/follows/users/1', 'social'],
    ['/api/feed?page=2', 'reviews'],
    ['/api/media/abc', 'reviews'],
    ['/api/squads/discover', 'squads'],
    ['/api/messages/conversations', 'messaging'],
    ['/api/notifications/unread-count', 'notifications'],
  ])('sends %s to %s', (path, service) => {
    expect(ownerOf(path)).toBe(service);
  });

  it('sends account deletion to auth, and the other /users/me routes to social', () => {
    expect(ownerOf('/api/users/me', 'DELETE')).toBe('auth');
    expect(ownerOf('/api/users/me?x=1', 'DELETE')).toBe('auth');
    expect(ownerOf('/api/users/me', 'GET')).toBe('social');
    expect(ownerOf('/api/users/me/export', 'DELETE')).toBe('social');
  });

  it('knows no owner for unknown prefixes', () => {
    expect(ownerOf('/api/admin/users')).toBeUndefined();
    expect(ownerOf('/api/')).toBeUndefined();
    // The services' import routes (IMPORT_TOKEN) are reached on a service's own port only.
    expect(ownerOf('/api/internal/import/members', 'POST')).toBeUndefined();
  });

  it('lets visitors read the API documentation, but not write to it', () => {
    expect(isPublicRoute('GET', '/api/docs')).toBe(true);
    expect(isPublicRoute('GET', '/api/docs/openapi.json')).toBe(true);
    expect(isPublicRoute('GET', '/api/docs/assets/swagger-ui.css')).toBe(true);
    expect(isPublicRoute('POST', '/api/docs')).toBe(false);
    expect(isPublicRoute('GET', '/api/docsx')).toBe(false);
    expect(isPublicRoute('GET', '/api/docs/../users/me')).toBe(false);
  });

  it('lets visitors read a shared product, reviews, one review and a profile, and write nothing (issue 43 §3)', () => {
    for (const path of ['/api/products/kettle', '/api/reviews?productId=p1', '/api/reviews/r1', '/api/users/profile/ayse?_t=1']) {
      expect(isPublicRoute('GET', path)).toBe(true);
      expect(isPublicRoute('POST', path)).toBe(false);
    }
    expect(isPublicRoute('PUT', '/api/products/kettle')).toBe(false);
    expect(isPublicRoute('DELETE', '/api/reviews/r1')).toBe(false);
    expect(isPublicRoute('GET', '/api/products')).toBe(false);
    expect(isPublicRoute('GET', '/api/reviews/r1/history')).toBe(false);
    expect(isPublicRoute('GET', '/api/reviews/..')).toBe(false);
    expect(isPublicRoute('GET', '/api/users/profile')).toBe(false);
    expect(isPublicRoute('GET', '/api/feed')).toBe(false);
    // the token check refuses a stale token on these, unlike on sign-in
    expect(isVisitorRead('GET', '/api/products/kettle')).toBe(true);
    expect(isVisitorRead('POST', '/api/auth/login')).toBe(false);
  });

  it('lets visitors reach only login, register, media files, the docs and the shared reads', () => {
    expect(isPublicRoute('POST', '/api/auth/login')).toBe(true);
    expect(isPublicRoute('POST', '/api/auth/register')).toBe(true);
    expect(isPublicRoute('GET', '/api/media/abc123')).toBe(true);
    expect(isPublicRoute('POST', '/api/media')).toBe(false);
    expect(isPublicRoute('GET', '/api/auth/me')).toBe(false);
    expect(isPublicRoute('GET', '/api/media/abc/../../users')).toBe(false);
  });
});
