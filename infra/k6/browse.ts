// Visitors browsing: product list and search, product pages, profiles.
import { check, group, sleep } from 'k6';
import { Options } from 'k6/options';
import { api, BASE_THRESHOLDS, pick, seed, SeedData, userOf } from './lib/setup.ts';

const WORDS = ['pro', 'air', 'max', 'mini', 'smart', 'blender'];

export const options: Options = {
  scenarios: {
    browse: { executor: 'constant-vus', vus: Number(__ENV.VUS ?? 20), duration: __ENV.DURATION ?? '1m' },
  },
  thresholds: {
    ...BASE_THRESHOLDS,
    'http_req_duration{name:products search}': ['p(95)<200'],
    'http_req_duration{name:profile}': ['p(95)<200'],
  },
};

export function setup(): SeedData {
  return seed();
}

export default function browse(data: SeedData): void {
  const me = userOf(data);
  group('products', () => {
    const list = api('GET', '/api/products?page=1&limit=12', me.token, undefined, 'products');
    check(list, { 'products 200': (r) => r.status === 200 });
    const search = api('GET', `/api/products?search=${pick(WORDS)}&page=1&limit=12`, me.token, undefined, 'products search');
    check(search, { 'search 200': (r) => r.status === 200 });
    if (data.products.length > 0) {
      const product = api('GET', `/api/products/${pick(data.products).slug}`, me.token, undefined, 'product page');
      check(product, { 'product 200': (r) => r.status === 200 });
    }
  });
  group('profiles', () => {
    const other = pick(data.users);
    const profile = api('GET', `/api/users/profile/${other.username}`, me.token, undefined, 'profile');
    check(profile, { 'profile 200': (r) => r.status === 200 });
    const reviews = api('GET', `/api/reviews?userId=${other.id}&page=1&limit=10`, me.token, undefined, 'profile reviews');
    check(reviews, { 'profile reviews 200': (r) => r.status === 200 });
  });
  sleep(1);
}
