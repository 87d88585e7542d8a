import { routePath } from './route-path';
import { isPublicRoute, ownerOf } from './routes';

describe('routePath: the path as the services route it', () => {
  it.each([
    ['/api/auth/login', '/api/auth/login'],
    ['/api/auth/LOGIN', '/api/auth/login'],
    ['/api/auth//login', '/api/auth/login'],
    ['/api/auth/login/?x=1', '/api/auth/login'],
    ['/api/auth/%6cogin', '/api/auth/login'],
    ['/API/Likes/REVIEWS/Ab1', '/api/likes/reviews/ab1'],
    ['/api/x/%E0%A4%A', '/api/x/%e0%a4%a'],
  ])('%s reads as %s', (url, path) => {
    expect(routePath(url)).toBe(path);
  });

  it('gives owner and public routes the same reading', () => {
    expect(ownerOf('/api//AUTH/login')).toBe('auth');
    expect(isPublicRoute('POST', '/api/auth/%4cOGIN/')).toBe(true);
    expect(isPublicRoute('GET', '/api/docs/%2e%2e/users/me')).toBe(false);
  });
});
