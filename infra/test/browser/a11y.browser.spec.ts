// Issue 19 (go beyond): accessibility. axe on the main screens (0 serious or critical), and a review posted by keyboard alone.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { apiCall, browserAvailable, contextFor, register, shot, startWorld, type Member, type World } from './harness';

jest.setTimeout(180_000);

const run = browserAvailable() ? describe : describe.skip;

/** The serious and critical axe violations on the page, one line each (rule, impact, first targets). */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

run('accessibility (issue 19)', () => {
  let world: World;
  let ayse: Member;
  let product: { id: string; slug?: string };
  let squad: { id: string };

  beforeAll(async () => {
    world = await startWorld();
    ayse = await register(world, 'Ayse Access');
    const deniz = await register(world, 'Deniz Access');
    await apiCall(world, 'POST', `/follows/users/${deniz.id}`, ayse.token);
    await apiCall(world, 'POST', `/follows/users/${ayse.id}`, deniz.token);
    product = await apiCall(world, 'POST', '/products', deniz.token, {
      name: `Access Lamp ${Date.now() % 100000}`,
      brand: 'Lumen',
      price: 35,
      category: 'Home',
      description: 'A desk lamp.',
      features: ['Warm light'],
    });
    const review = await apiCall<{ id: string }>(world, 'POST', '/reviews', deniz.token, { product_id: product.id, rating: 4, title: 'Access Lamp', content: 'Bright and calm.' });
    await apiCall(world, 'POST', `/likes/reviews/${review.id}`, ayse.token);
    squad = await apiCall(world, 'POST', '/squads', ayse.token, { name: 'Lamp Lovers', description: 'Lamps.', category: 'General' });
    const conv = await apiCall<{ id: string }>(world, 'POST', '/messages/conversations', ayse.token, { memberIds: [deniz.id] });
    await apiCall(world, 'POST', `/messages/conversations/${conv.id}/messages`, deniz.token, { content: 'Merhaba!' });
    await world.stack.settle();
  });
  afterAll(async () => {
    await world?.close();
  });

  // each screen and the test id that says its data has arrived
  const screens: Array<[string, () => string, string]> = [
    ['home', () => '/home', 'review-card'],
    ['products', () => '/products', 'product-card'],
    ['product detail', () => `/product/${product.id}`, 'product-detail'],
    ['profile', () => '/profile', 'profile-counters'],
    ['messages', () => '/messages', 'conversation-item'],
    ['squads', () => `/squads/${squad.id}`, 'squad-detail'],
    ['my squads', () => '/my-squads', 'my-squads'],
    ['notifications', () => '/notifications', 'notifications-page'],
    ['settings', () => '/settings', 'avatar-file'],
  ];

  test.each([false, true])('axe finds no serious or critical violation on the main screens (dark %s)', async (dark) => {
    const { context, page } = await contextFor(world, ayse, { dark });
    const found: string[] = [];
    for (const [name, path, ready] of screens) {
      await page.goto(path());
      await page.getByTestId(ready).first().waitFor({ state: 'attached' });
      await page.waitForTimeout(300);
      found.push(...(await seriousViolations(page)).map((v) => `${name}: ${v}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });

  test('a review is written and posted with the keyboard alone, with a visible focus ring', async () => {
    const { context, page } = await contextFor(world, ayse);
    await page.goto('/home');
    const composer = page.getByTestId('composer-text');
    await composer.waitFor();
    // Tab from the top of the page until the composer has the focus
    let steps = 0;
    while (!(await composer.evaluate((el) => el === document.activeElement)) && steps < 40) {
      await page.keyboard.press('Tab');
      steps += 1;
    }
    expect(steps).toBeLessThan(40);
    await page.keyboard.type('Written without a mouse.');
    // the rating tool, then the third star, then Post Review, all by Tab and Enter
    const tabTo = async (name: string, back = false) => {
      for (let i = 0; i < 15; i += 1) {
        await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
        const label = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return el ? el.getAttribute('aria-label') ?? el.textContent ?? '' : '';
        });
        if (label.trim() === name) return;
      }
      throw new Error(`no focusable control named ${String(name)}`);
    };
    await tabTo('Rating');
    await page.keyboard.press('Enter');
    // the stars open above the tools, so they are behind the Rating button
    await tabTo('3 stars', true);
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(ring).not.toBe('none');
    await page.keyboard.press('Enter');
    await tabTo('Post Review');
    expect(await page.getByTestId('composer').getByRole('group', { name: '3 of 5 stars' }).count()).toBe(1);
    await shot(page, 'a01-keyboard-focus');
    await page.keyboard.press('Enter');
    await page.getByTestId('review-card').filter({ hasText: 'Written without a mouse.' }).waitFor();
    await context.close();
  });

  test('a modal keeps the focus inside and closes on Escape', async () => {
    const { context, page } = await contextFor(world, ayse);
    await page.goto('/messages');
    await page.getByRole('button', { name: 'New Message' }).first().focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await shot(page, 'a02-modal-focus');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // the focus goes back to the button that opened it
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('New Message');
    await context.close();
  });
});
