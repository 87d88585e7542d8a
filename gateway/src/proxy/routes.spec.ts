import { isPublicRoute, ownerOf } from './routes';

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

  it('knows no owner for unknown prefixes', () => {
    expect(ownerOf('/api/admin/users')).toBeUndefined();
    expect(ownerOf('/api/')).toBeUndefined();
  });

  it('lets visitors reach only login, register and media files', () => {
    expect(isPublicRoute('POST', '/api/auth/login')).toBe(true);
    expect(isPublicRoute('POST', '/api/auth/register')).toBe(true);
    expect(isPublicRoute('GET', '/api/media/abc123')).toBe(true);
    expect(isPublicRoute('POST', '/api/media')).toBe(false);
    expect(isPublicRoute('GET', '/api/auth/me')).toBe(false);
    expect(isPublicRoute('GET', '/api/media/abc/../../users')).toBe(false);
  });
});
