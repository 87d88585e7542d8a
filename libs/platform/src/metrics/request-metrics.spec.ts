import Fastify from 'fastify';
import { httpDuration } from './metrics';
import { observeRequests } from './request-metrics';

/** The histogram's sample count for one label set. */
async function count(labels: Record<string, string>): Promise<number> {
  const { values } = await httpDuration.get();
  const sample = values.find(
    (v) => v.metricName === 'http_request_duration_seconds_count' && Object.entries(labels).every(([k, l]) => (v.labels as Record<string, unknown>)[k] === l),
  );
  return sample?.value ?? 0;
}

describe('observeRequests', () => {
  it('records one observation per response under the route pattern and the status sent', async () => {
    const fastify = Fastify();
    observeRequests(fastify, 'metrics-spec');
    fastify.get('/api/things/:id', async (request, reply) => {
      if ((request.params as { id: string }).id === 'gone') return reply.code(404).send({ success: false });
      return { success: true };
    });
    await fastify.ready();

    await fastify.inject({ method: 'GET', url: '/api/things/a' });
    await fastify.inject({ method: 'GET', url: '/api/things/b' });
    await fastify.inject({ method: 'GET', url: '/api/things/gone' });
    await fastify.inject({ method: 'GET', url: '/elsewhere' });

    const base = { service: 'metrics-spec', method: 'GET' };
    expect(await count({ ...base, route: '/api/things/:id', status: '200' })).toBe(2);
    expect(await count({ ...base, route: '/api/things/:id', status: '404' })).toBe(1);
    expect(await count({ ...base, route: 'unmatched', status: '404' })).toBe(1);
    await fastify.close();
  });
});
