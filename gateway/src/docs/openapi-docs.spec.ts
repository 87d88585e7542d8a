import { mergeDocuments } from './openapi-docs';

const doc = (title: string, paths: Record<string, Record<string, object>>) => ({ openapi: '3.0.0', info: { title, version: '1' }, paths });

describe('mergeDocuments', () => {
  it('tags each operation with its service and drops service-local paths', () => {
    const merged = mergeDocuments({
      auth: doc('auth service', { '/api/auth/login': { post: { summary: 'log in' } }, '/health/live': { get: {} } }),
      reviews: doc('reviews service', { '/api/feed': { get: { tags: ['Feed'] } } }),
    });
    expect(merged.paths['/api/auth/login'].post).toEqual({ summary: 'log in', tags: ['auth'] });
    expect(merged.paths['/api/feed'].get.tags).toEqual(['reviews', 'Feed']);
    expect(merged.paths['/health/live']).toBeUndefined();
    expect(merged.tags?.map((t) => t.name)).toEqual(['auth', 'reviews']);
  });

  it('names the services that did not answer', () => {
    const merged = mergeDocuments({ auth: doc('auth service', {}) });
    expect(merged.info.description).toBe('Not answering when this was built: social, reviews, squads, messaging, notifications.');
  });

  it('keeps every service\'s schemas and qualifies a name two services define differently', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const body = (name: string) => ({ requestBody: { content: { 'application/json': { schema: ref(name) } } } });
    const page = { type: 'object', properties: { page: { type: 'integer' } } };
    const merged = mergeDocuments({
      auth: {
        ...doc('auth service', { '/api/auth/login': { post: body('LoginDto') }, '/api/auth/me': { put: body('ProfileDto') } }),
        components: { schemas: { LoginDto: { type: 'object' }, ProfileDto: { properties: { a: ref('PageDto') } }, PageDto: page } },
      },
      social: {
        ...doc('social service', { '/api/users/profile': { put: body('ProfileDto') } }),
        components: { schemas: { ProfileDto: { properties: { b: { type: 'string' } } }, PageDto: page } },
      },
    });
    expect(Object.keys(merged.components?.schemas ?? {}).sort()).toEqual(['LoginDto', 'PageDto', 'auth.ProfileDto', 'social.ProfileDto']);
    expect(merged.components?.schemas?.['auth.ProfileDto']).toEqual({ properties: { a: ref('PageDto') } });
    expect(merged.paths['/api/auth/me'].put).toMatchObject(body('auth.ProfileDto'));
    expect(merged.paths['/api/users/profile'].put).toMatchObject(body('social.ProfileDto'));
    expect(merged.paths['/api/auth/login'].post).toMatchObject(body('LoginDto'));
  });
});
