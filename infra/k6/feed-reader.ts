// Members reading their feed page by page, with the unread badge polled as the SPA does.
import { check, sleep } from 'k6';
import { Options } from 'k6/options';
import { api, BASE_THRESHOLDS, dataOf, seed, SeedData, userOf } from './lib/setup.ts';

export const options: Options = {
  scenarios: {
    readers: { executor: 'constant-vus', vus: Number(__ENV.VUS ?? 30), duration: __ENV.DURATION ?? '1m' },
  },
  thresholds: {
    ...BASE_THRESHOLDS,
    'http_req_duration{name:feed}': ['p(95)<250'],
    'http_req_duration{name:unread count}': ['p(95)<100'],
  },
};

export function setup(): SeedData {
  return seed();
}

export default function readFeed(data: SeedData): void {
  const me = userOf(data);
  for (let page = 1; page <= 3; page++) {
    const res = api('GET', `/api/feed?page=${page}&limit=10`, me.token, undefined, 'feed');
    const ok = check(res, { 'feed 200': (r) => r.status === 200 });
    if (!ok || dataOf<unknown[]>(res).length < 10) break;
    sleep(0.5);
  }
  check(api('GET', '/api/notifications/unread-count', me.token, undefined, 'unread count'), { 'unread 200': (r) => r.status === 200 });
  check(api('GET', '/api/trending', me.token, undefined, 'trending'), { 'trending 200': (r) => r.status === 200 });
  sleep(1);
}
