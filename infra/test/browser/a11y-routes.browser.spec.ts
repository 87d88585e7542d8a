// Issue 30 §5: axe reports no violation at all (any impact, WCAG 2.1 A/AA and best practice) on every route of the app.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { apiCall, contextFor, describeInBrowser, register, type Member } from './harness';
import { signedInRoutes, type WalkedRoute } from './app-routes';

jest.setTimeout(300_000);

/** Every axe violation on the page, one line each (rule, impact, first targets). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

describeInBrowser('every route passes axe (issue 30 §5)', (world) => {
  let ayse: Member;
  let deniz: Member;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ayse = await register(world, 'Ayse Routes');
    deniz = await register(world, 'Deniz Routes');
    await apiCall(world, 'POST', `/follows/users/${deniz.id}`, ayse.token);
    await apiCall(world, 'POST', `/follows/users/${ayse.id}`, deniz.token);
    const product = await apiCall<{ id: string; slug: string }>(world, 'POST', '/products', deniz.token, {
      name: `Route Lamp ${Date.now() % 100000}`,
      brand: 'Lumen',
      price: 35,
      category: 'Home',
      description: 'A desk lamp.',
      features: ['Warm light'],
    });
    ids.product = product.slug;
    ids.productId = product.id;
    ids.review = (await apiCall<{ id: string }>(world, 'POST', '/reviews', deniz.token, { product_id: product.id, rating: 4, title: 'Route Lamp', content: 'Bright and calm. #lamba' })).id;
    await apiCall(world, 'POST', `/reviews/${ids.review}/comments`, ayse.token, { content: 'Agreed!' });
    ids.squad = (await apiCall<{ id: string }>(world, 'POST', '/squads', ayse.token, { name: 'Route Lamps', description: 'Lamps.', category: 'General' })).id;
    ids.conversation = (await apiCall<{ id: string }>(world, 'POST', '/messages/conversations', ayse.token, { memberIds: [deniz.id] })).id;
    await apiCall(world, 'POST', `/messages/conversations/${ids.conversation}/messages`, deniz.token, { content: 'Merhaba!' });
    ids.list = (await apiCall<{ id: string }>(world, 'POST', '/lists', ayse.token, { name: 'Desk things', visibility: 'public' })).id;
    await world.stack.settle();
  });

  const signedIn = signedInRoutes({ ids, word: 'lamba', other: () => deniz.username });
  const visitor: WalkedRoute[] = [
    ['landing', () => '/', 'h1'],
    ['login', () => '/login', '[role="dialog"]'],
    ['reset password', () => '/reset-password?token=x', 'h1'],
    ['a profile as a visitor', () => `/user/${deniz.username}`, 'h1'],
  ];

  const check = async (page: Page, routes: WalkedRoute[]) => {
    const found: string[] = [];
    for (const [name, path, ready] of routes) {
      await page.goto(path());
      await page.locator(ready).first().waitFor({ state: 'attached' });
      await page.waitForTimeout(300);
      found.push(...(await violations(page)).map((v) => `${name}: ${v}`));
    }
    return found;
  };

  test('no violation on any signed-in route', async () => {
    const { context, page } = await contextFor(world, ayse);
    expect(await check(page, signedIn)).toEqual([]);
    await context.close();
  });

  test('no violation on a phone either (the audit pages at a phone width)', async () => {
    const { context, page } = await contextFor(world, ayse, { viewport: { width: 412, height: 823 } });
    const phone = signedIn.filter(([name]) => ['home', 'products', 'a product', 'a profile', 'a review'].includes(name));
    expect(await check(page, phone)).toEqual([]);
    await context.close();
  });

  test('no violation on the visitor routes', async () => {
    const { context, page } = await contextFor(world);
    expect(await check(page, visitor)).toEqual([]);
    await context.close();
  });
});
