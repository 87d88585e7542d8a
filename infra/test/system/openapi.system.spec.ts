import request from 'supertest';
import { MAX_PAGE_LIMIT, REVIEW_CONTENT_MAX, REVIEW_IMAGES_MAX, REVIEW_SORTS } from '@app/contracts';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/** The merged OpenAPI document at /api/docs: every service's routes, readable without a token. */
describe('OpenAPI through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('lists the routes of every service, tagged by service, without a token', async () => {
    const res = await request(stack.url).get('/api/docs/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.info.description).toBeUndefined(); // every service answered
    const paths = res.body.paths as Record<string, Record<string, { tags: string[] }>>;
    expect(paths['/api/auth/login'].post.tags[0]).toBe('auth');
    expect(paths['/api/feed'].get.tags[0]).toBe('reviews');
    expect(paths['/api/squads/discover'].get.tags[0]).toBe('squads');
    expect(paths['/api/messages/conversations'].get.tags[0]).toBe('messaging');
    expect(paths['/api/notifications'].get.tags[0]).toBe('notifications');
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/users/profile/{username}', '/api/follows/users/{id}']));
    // Health and metrics stay out of the API document.
    expect(Object.keys(paths).every((p) => p.startsWith('/api/'))).toBe(true);
  });

  it('documents request bodies and query parameters from the DTOs\' validation rules', async () => {
    const doc = (await request(stack.url).get('/api/docs/openapi.json')).body;
    const create = doc.paths['/api/reviews'].post.requestBody.content['application/json'].schema;
    expect(create).toEqual({ $ref: '#/components/schemas/CreateReviewDto' });
    const schema = doc.components.schemas.CreateReviewDto;
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['content']);
    expect(Object.keys(schema.properties).sort()).toEqual(['content', 'date', 'has_spoilers', 'image_alts', 'images', 'location', 'product_id', 'rating', 'title']);
    expect(schema.properties.image_alts).toMatchObject({ type: 'array', maxItems: REVIEW_IMAGES_MAX, items: { type: 'string' } });
    expect(schema.properties.content).toEqual({ type: 'string', minLength: 1, maxLength: REVIEW_CONTENT_MAX });
    expect(schema.properties.rating).toEqual({ type: 'number', minimum: 0.5, maximum: 5, multipleOf: 0.5 });
    expect(schema.properties.images).toMatchObject({ type: 'array', maxItems: REVIEW_IMAGES_MAX, items: { type: 'string' } });
    expect(doc.components.schemas.LoginDto.required).toEqual(['email', 'password']);
    // No body schema is left empty, in any service.
    const empty = Object.entries(doc.components.schemas as Record<string, { properties?: object }>).filter(([, s]) => !Object.keys(s.properties ?? {}).length);
    expect(empty).toEqual([]);
    // A query DTO (ReviewQueryDto extends PageQueryDto) becomes typed query parameters.
    const params = doc.paths['/api/reviews'].get.parameters as { name: string; in: string; required: boolean; schema: object }[];
    expect(params.find((p) => p.name === 'sort')).toEqual({
      name: 'sort',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: [...REVIEW_SORTS] },
    });
    expect(params.find((p) => p.name === 'limit')).toEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: 20 },
    });
  });

  it('serves a page with Swagger UI from the gateway itself and a plain route table', async () => {
    const page = await request(stack.url).get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('/api/docs/assets/swagger-ui-bundle.js');
    expect(page.text).toContain('<code>/api/squads/discover</code>');
    expect(page.text).not.toMatch(/https?:\/\/(?!localhost)/);
    const bundle = await request(stack.url).get('/api/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect((await request(stack.url).get('/api/docs/init.js')).text).toContain("url: '/api/docs/openapi.json'");
  });

  it('keeps the rest of /api behind the token and unknown routes at 404', async () => {
    expect((await request(stack.url).get('/api/feed')).status).toBe(401);
    expect((await request(stack.url).post('/api/docs/openapi.json')).status).toBe(401);
  });
});
