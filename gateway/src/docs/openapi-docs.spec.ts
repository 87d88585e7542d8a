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
});
