// Issue 31 §6: no route scrolls sideways at any width from 360 to 1920 px.
import type { Page } from 'playwright-core';
import { apiCall, contextFor, describeInBrowser, register } from './harness';

jest.setTimeout(300_000);

const WIDTHS = [360, 390, 768, 1024, 1280, 1440, 1920];

/** How far the page (or a tab row) reaches past the viewport, and the innermost element that does (for the message). */
async function overflowOf(page: Page): Promise<{ overflow: number; culprit: string }> {
  return page.evaluate(() => {
    // a tab row that scrolls inside itself is a sideways scroll too
    const tabRow = Array.from(document.querySelectorAll<HTMLElement>('.tabs')).find((t) => t.scrollWidth > t.clientWidth + 1);
    if (tabRow) return { overflow: tabRow.scrollWidth - tabRow.clientWidth, culprit: 'a tab row scrolls inside itself' };
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    let culprit = '';
    if (overflow > 0) {
      // the innermost element wider than its box (text that cannot wrap) or reaching past the edge
      const wide = (el: Element) => (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 1) || el.getBoundingClientRect().right > window.innerWidth + 1;
      const all = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter(wide);
      const leaf = all.find((el) => !all.some((other) => other !== el && el.contains(other)));
      if (leaf) culprit = leaf.outerHTML.slice(0, 160);
    }
    return { overflow, culprit };
  });
}

describeInBrowser('layout: no sideways scroll on any route (issue 31 §6)', (world) => {
  test('every route from 360 to 1920 px', async () => {
    const ayse = await register(world, 'Ayse Layout Longer Display Name');
    const burak = await register(world, 'Burak Layout');
    const product = await apiCall<{ id: string }>(world, 'POST', '/products', ayse.token, { name: 'A kettle with a rather long product name that wraps', category: 'Kitchen', price: 25 });
    await apiCall(world, 'POST', '/reviews', ayse.token, { product_id: product.id, rating: 4, title: 'Boils fast', content: 'A long review text with #demlik tag and enough words to wrap over several lines on a phone.' });
    const squad = await apiCall<{ id: string }>(world, 'POST', '/squads', ayse.token, { name: 'Tea Time Layout', category: 'Food' });
    const conversation = await apiCall<{ id: string }>(world, 'POST', '/messages/conversations', ayse.token, { memberIds: [burak.id] });
    await apiCall(world, 'POST', `/messages/conversations/${conversation.id}/messages`, burak.token, { content: 'Merhaba! A message that is long enough to wrap.' });
    const list = await apiCall<{ id: string }>(world, 'POST', '/lists', ayse.token, { name: 'Kitchen', visibility: 'public' });
    await world.stack.settle();

    const signedIn = [
      '/home',
      '/explore',
      '/messages',
      `/messages/${conversation.id}`,
      '/notifications',
      '/settings',
      '/my-squads',
      '/create-squad',
      `/squads/${squad.id}`,
      `/product/${product.id}`,
      '/create-product',
      '/my-reviews',
      '/friends',
      '/products',
      '/saved',
      `/lists/${list.id}`,
      '/search?q=kettle',
      '/profile',
      '/profile?tab=lists',
      `/user/${burak.username}`,
      '/moderation',
      '/tags/demlik',
      '/no-such-page',
    ];
    const wrong: string[] = [];
    const member = await contextFor(world, ayse);
    for (const path of signedIn) {
      await member.page.goto(path);
      await member.page.waitForLoadState('networkidle');
      for (const width of WIDTHS) {
        await member.page.setViewportSize({ width, height: 900 });
        const { overflow, culprit } = await overflowOf(member.page);
        if (overflow > 0) wrong.push(`${path} at ${width}px: ${overflow}px wider, ${culprit}`);
      }
    }
    await member.context.close();

    const visitor = await contextFor(world);
    for (const path of ['/', '/login', '/reset-password?token=x', `/user/${burak.username}`]) {
      await visitor.page.goto(path);
      await visitor.page.waitForLoadState('networkidle');
      for (const width of WIDTHS) {
        await visitor.page.setViewportSize({ width, height: 900 });
        const { overflow, culprit } = await overflowOf(visitor.page);
        if (overflow > 0) wrong.push(`visitor ${path} at ${width}px: ${overflow}px wider, ${culprit}`);
      }
    }
    await visitor.context.close();
    expect(wrong).toEqual([]);
  });
});
