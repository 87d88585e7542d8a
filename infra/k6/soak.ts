// Hours at a steady, realistic mix (70 % reads, 30 % writes) to find leaks and slow drift:
// watch process_resident_memory_bytes and bus_event_lag_seconds on the metrics port (METRICS_PORT, docs/OPERATIONS.md) while it runs.
import { check, sleep } from 'k6';
import { Options } from 'k6/options';
import { api, BASE_THRESHOLDS, pick, seed, SeedData, userOf } from './lib/setup.ts';

export const options: Options = {
  scenarios: {
    soak: { executor: 'constant-vus', vus: Number(__ENV.VUS ?? 25), duration: __ENV.DURATION ?? '2h' },
  },
  thresholds: {
    ...BASE_THRESHOLDS,
    // A p99 that holds for hours: drift would push it over.
    http_req_duration: ['p(95)<300', 'p(99)<800'],
  },
};

export function setup(): SeedData {
  return seed();
}

export default function soak(data: SeedData): void {
  const me = userOf(data);
  if (Math.random() < 0.7) {
    check(api('GET', '/api/feed?page=1&limit=10', me.token, undefined, 'feed'), { 'feed 200': (r) => r.status === 200 });
    check(api('GET', '/api/products?search=pro&page=1&limit=12', me.token, undefined, 'products search'), { 'search 200': (r) => r.status === 200 });
    check(api('GET', '/api/notifications?page=1&limit=20', me.token, undefined, 'notifications'), { 'notifications 200': (r) => r.status === 200 });
  } else if (data.reviewIds.length > 0) {
    const reviewId = pick(data.reviewIds);
    check(api('POST', `/api/likes/reviews/${reviewId}`, me.token, {}, 'like toggle'), { 'like 200': (r) => r.status === 200 });
    const comment = api('POST', `/api/reviews/${reviewId}/comments`, me.token, { content: 'soak comment' }, 'comment');
    check(comment, { 'comment 201': (r) => r.status === 201 });
  }
  sleep(2);
}
