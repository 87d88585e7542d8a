// Members writing: reviews, likes (toggled twice so the data set stays stable) and comments.
import { check, sleep } from 'k6';
import { Options } from 'k6/options';
import { api, BASE_THRESHOLDS, pick, seed, SeedData, userOf } from './lib/setup.ts';

export const options: Options = {
  scenarios: {
    writers: { executor: 'constant-arrival-rate', rate: Number(__ENV.RATE ?? 20), timeUnit: '1s', duration: __ENV.DURATION ?? '1m', preAllocatedVUs: 20, maxVUs: 100 },
  },
  thresholds: {
    ...BASE_THRESHOLDS,
    'http_req_duration{name:create review}': ['p(95)<400'],
    'http_req_duration{name:like toggle}': ['p(95)<200'],
    'http_req_duration{name:comment}': ['p(95)<300'],
  },
};

export function setup(): SeedData {
  return seed();
}

export default function write(data: SeedData): void {
  const me = userOf(data);
  const roll = Math.random();
  if (roll < 0.2) {
    // Without a product: a member reviews each product once (409 ALREADY_REVIEWED), and the
    // seeded members would run out of products within seconds.
    const body = { title: 'k6 review', content: `Written under load by VU ${__VU}.` };
    check(api('POST', '/api/reviews', me.token, body, 'create review'), { 'review created': (r) => r.status === 201 });
  } else if (roll < 0.8 && data.reviewIds.length > 0) {
    const reviewId = pick(data.reviewIds);
    for (let i = 0; i < 2; i++) {
      check(api('POST', `/api/likes/reviews/${reviewId}`, me.token, {}, 'like toggle'), { 'like toggled': (r) => r.status === 200 || r.status === 201 });
    }
  } else if (data.reviewIds.length > 0) {
    const res = api('POST', `/api/reviews/${pick(data.reviewIds)}/comments`, me.token, { content: `k6 comment from VU ${__VU}` }, 'comment');
    check(res, { 'comment created': (r) => r.status === 201 });
  }
  sleep(0.1);
}
