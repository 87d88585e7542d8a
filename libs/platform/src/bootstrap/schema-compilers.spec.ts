import fastify from 'fastify';
import { lazySchemaCompilers } from './schema-compilers';

describe('lazySchemaCompilers', () => {
  it('validates and serialises as Fastify does when a route declares schemas (compilers loaded on first use)', async () => {
    const app = fastify({ schemaController: lazySchemaCompilers });
    app.post(
      '/echo',
      {
        schema: {
          body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2 } } },
          response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      },
      async (request) => ({ ...(request.body as object), secret: 'not in the response schema' }),
    );
    app.get('/plain', async () => ({ plain: true }));
    try {
      expect((await app.inject({ method: 'POST', url: '/echo', payload: { name: 'x' } })).statusCode).toBe(400);
      const ok = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'Ada' } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ name: 'Ada' });
      expect((await app.inject({ method: 'GET', url: '/plain' })).json()).toEqual({ plain: true });
    } finally {
      await app.close();
    }
  });
});
