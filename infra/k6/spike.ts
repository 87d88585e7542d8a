// A sudden crowd: from 5 to SPIKE_VUS readers in ten seconds, held, then gone.
// The thresholds are looser than steady state; what must hold is no errors and a quick recovery.
import { check, sleep } from 'k6';
import { Options } from 'k6/options';
import { api, pick, seed, SeedData, userOf } from './lib/setup.ts';

const peak = Number(__ENV.SPIKE_VUS ?? 300);

export const options: Options = {
  scenarios: {
    spike: {
      executor: 'ramping-vus',
      startVUs: 5,
      stages: [
        { duration: '20s', target: 5 },
        { duration: '10s', target: peak },
        { duration: '1m', target: peak },
        { duration: '10s', target: 5 },
        { duration: '30s', target: 5 },
      ],
      gracefulRampDown: '10s',
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.02'],
    http_req_duration: ['p(95)<1500'],
    checks: ['rate>0.98'],
  },
};

export function setup(): SeedData {
  return seed();
}

export default function spike(data: SeedData): void {
  const me = userOf(data);
  check(api('GET', '/api/feed?page=1&limit=10', me.token, undefined, 'feed'), { 'feed 200': (r) => r.status === 200 });
  check(api('GET', '/api/products?page=1&limit=12', me.token, undefined, 'products'), { 'products 200': (r) => r.status === 200 });
  check(api('GET', `/api/users/profile/${pick(data.users).username}`, me.token, undefined, 'profile'), { 'profile 200': (r) => r.status === 200 });
  check(api('GET', '/api/notifications/unread-count', me.token, undefined, 'unread count'), { 'unread 200': (r) => r.status === 200 });
  sleep(1);
}
