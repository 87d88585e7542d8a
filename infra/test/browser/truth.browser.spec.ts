import type { Page } from 'playwright-core';
import { apiCall, contextFor, describeInBrowser, register, shot, solidPng, type Member, type World } from './harness';

/**
 * Issue 43 §2 and §3 in Chromium: one fact shows one value on every screen, the viewer's own marks
 * survive a reload, a spoiler stays behind its guard, and a shared link shows a visitor what was
 * shared (or a 404 for what is not there). Two members side by side and a visitor, at 1280 and 390 px.
 */

const PHONE = { width: 390, height: 844 };

/** Uploads a picture as the member; its URL. */
async function upload(world: World, member: Member, rgb: [number, number, number]): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(solidPng(rgb, 64))], { type: 'image/png' }), 'photo.png');
  const res = await fetch(`${world.stack.url}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${member.token}` }, body: form });
  const json = (await res.json()) as { data: { url: string } };
  if (!res.ok) throw new Error(`upload -> ${res.status}`);
  return json.data.url;
}

/** The number in an element's text ("(2 reviews)", "Customer Reviews (2)"). */
async function numberIn(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).first().textContent()) ?? '';
  return Number(/\d+/.exec(text)?.[0] ?? NaN);
}

describeInBrowser('every screen tells the truth (issue 43 §2, §3)', (world) => {
  let admin: Member;
  let ayse: Member;
  let burak: Member;
  let hermit: Member;
  let product: { id: string; slug: string };
  let spamId: string;

  beforeAll(async () => {
    // the first account is the admin: it hides a review as a moderator would
    admin = await register(world, 'Ada Admin');
    ayse = await register(world, 'Ayse Truth');
    burak = await register(world, 'Burak Truth');
    hermit = await register(world, 'Hilal Hermit');
    await apiCall(world, 'PUT', '/users/settings', hermit.token, { privacy_profile: 'private' });
    product = await apiCall(world, 'POST', '/products', ayse.token, { name: 'Truthful Kettle', brand: 'Acme', category: 'Kitchen', price: 30, description: 'Boils water.' });
    await apiCall(world, 'POST', '/reviews', ayse.token, { product_id: product.id, rating: 5, content: 'Boils in a minute.' });
    await apiCall(world, 'POST', '/reviews', admin.token, { product_id: product.id, rating: 4, content: 'Quiet and quick.' });
    spamId = (await apiCall<{ id: string }>(world, 'POST', '/reviews', burak.token, { product_id: product.id, rating: 1, content: 'Buy followers at example.test' })).id;
    await apiCall(world, 'POST', '/reviews', burak.token, { rating: 3, content: 'A plain post of mine.' });
    await apiCall(world, 'POST', `/follows/users/${ayse.id}`, burak.token);
    await apiCall(world, 'POST', `/follows/users/${ayse.id}`, admin.token);
    await world.stack.settle();
  });

  test('a hidden review leaves the product head, its list, the catalogue card, the link card and the profile at once', async () => {
    await apiCall(world, 'POST', `/moderation/reviews/${spamId}/hide`, admin.token, { reason: 'Spam links' });
    await world.stack.settle();
    const a = await contextFor(world, ayse);
    const b = await contextFor(world, burak, { viewport: PHONE });
    for (const { page } of [a, b]) {
      await page.goto(`/product/${product.slug}`);
      await page.getByTestId('review-card').nth(1).waitFor();
      expect(await numberIn(page, 'product-review-count')).toBe(2);
      expect(await numberIn(page, 'product-reviews-heading')).toBe(2);
      expect(await page.getByTestId('review-card').count()).toBe(2);
    }
    await shot(a.page, 'tr01-product-counts-1280');
    await shot(b.page, 'tr01-product-counts-390');

    // the catalogue's card says the same
    await a.page.goto('/products');
    const card = a.page.getByTestId('product-card').filter({ hasText: 'Truthful Kettle' });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/\b2\b/);
    expect(await card.textContent()).not.toMatch(/\b3\b/);

    // the link card of the shared page
    const html = await (await fetch(`${world.stack.url}/product/${product.slug}`)).text();
    expect(html).toContain('4.5/5 from 2 reviews');

    // the author's profile counts what its list shows
    await b.page.goto('/profile');
    await b.page.getByTestId('review-row').first().waitFor();
    expect(Number(await b.page.getByTestId('count-reviews').textContent())).toBe(1);
    expect(await b.page.getByTestId('review-row').count()).toBe(1);
    await a.context.close();
    await b.context.close();
  });

  test('saved and liked stay right after a reload, on the product page and in the catalogue', async () => {
    const { context, page } = await contextFor(world, burak);
    await page.goto(`/product/${product.slug}`);
    const save = page.getByTestId('save-product');
    await save.waitFor();
    expect(await save.getAttribute('aria-pressed')).toBe('false');
    await save.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="save-product"]')?.getAttribute('aria-pressed') === 'true');
    await page.reload();
    await page.getByTestId('product-detail').waitFor();
    expect(await page.getByTestId('save-product').getAttribute('aria-pressed')).toBe('true');

    await page.goto('/products');
    const card = page.getByTestId('product-card').filter({ hasText: 'Truthful Kettle' });
    await card.waitFor();
    expect(await card.locator('.save-toggle[aria-pressed]').getAttribute('aria-pressed')).toBe('true');
    // a like from the card survives the reload too
    const like = card.locator('.product-actions .action').first();
    await like.click();
    await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="product-card"]')).some((c) => c.textContent?.includes('Truthful Kettle') && c.querySelector('.product-actions .action.liked')));
    await world.stack.settle();
    await page.reload();
    await card.waitFor();
    expect(await card.locator('.product-actions .action').first().getAttribute('class')).toContain('liked');
    expect(await card.locator('.save-toggle[aria-pressed]').getAttribute('aria-pressed')).toBe('true');
    await shot(page, 'tr02-saved-after-reload');

    // the Saved page lists it, and says Saved
    await page.goto('/saved');
    const saved = page.getByTestId('product-card').filter({ hasText: 'Truthful Kettle' });
    await saved.waitFor();
    expect(await saved.locator('.save-toggle[aria-pressed]').getAttribute('aria-pressed')).toBe('true');
    await context.close();
  });

  test("a spoiler's text and photo stay behind its guard on the author's profile; a plain review shows its own photo", async () => {
    const spoilerPhoto = await upload(world, ayse, [200, 30, 30]);
    const plainPhoto = await upload(world, ayse, [30, 160, 60]);
    await apiCall(world, 'POST', '/reviews', ayse.token, { rating: 4, content: 'The butler did it, in the library.', has_spoilers: true, images: [spoilerPhoto], image_alts: ['The butler'] });
    await apiCall(world, 'POST', '/reviews', ayse.token, { rating: 5, content: 'A sunny walk.', images: [plainPhoto], image_alts: ['A green field'] });
    await world.stack.settle();
    const { context, page } = await contextFor(world, burak);
    await page.goto(`/user/${ayse.username}`);
    await page.getByTestId('review-row-spoiler').waitFor();
    expect(await page.getByText('The butler did it').count()).toBe(0);
    expect(await page.locator(`img[src="${spoilerPhoto}"]`).count()).toBe(0);
    expect(await page.locator(`img.thumb[src="${plainPhoto}"]`).count()).toBe(1);
    // the spoiler's tile says it is guarded, not that there is no picture
    const guarded = page.getByTestId('review-row').filter({ has: page.getByTestId('review-row-spoiler') });
    await guarded.getByTestId('spoiler-thumb').waitFor();
    expect(await guarded.getByText('No img').count()).toBe(0);
    await shot(page, 'tr03-profile-spoiler-guarded');
    // opened, the row is the card with its guard: the text and photo come only when asked
    await page.getByTestId('review-row').filter({ has: page.getByTestId('review-row-spoiler') }).click();
    await page.getByTestId('spoiler-reveal').waitFor();
    expect(await page.getByText('The butler did it').count()).toBe(0);
    await page.getByTestId('spoiler-reveal').click();
    await page.getByText('The butler did it, in the library.').waitFor();
    await page.locator(`img[src="${spoilerPhoto}"]`).waitFor();
    await context.close();
  });

  test('a visitor reads a shared product, review and profile with their real data, read-only, at 1280 and 390 px', async () => {
    const review = await apiCall<{ id: string }>(world, 'POST', '/reviews', admin.token, { rating: 4, content: 'Shared with the world.' });
    const ayseProfile = await apiCall<{ reviews_count: number; followers_count: number }>(world, 'GET', `/users/profile/${ayse.username}`, ayse.token);
    expect(ayseProfile.followers_count).toBe(2);
    for (const viewport of [{ width: 1280, height: 860 }, PHONE]) {
      const { context, page } = await contextFor(world, undefined, { viewport });
      const w = viewport.width;

      const productPage = await page.goto(`/product/${product.slug}`);
      expect(productPage?.status()).toBe(200);
      await page.getByTestId('product-detail').waitFor();
      expect(page.url()).toContain(`/product/${product.slug}`);
      await page.getByText('Truthful Kettle').first().waitFor();
      await page.getByTestId('review-card').nth(1).waitFor();
      expect(await numberIn(page, 'product-review-count')).toBe(2);
      expect(await page.getByTestId('write-review').count()).toBe(0);
      expect(await page.getByTestId('save-product').count()).toBe(0);
      expect(await page.getByTestId('like-button').count()).toBe(0);
      await page.getByTestId('join-prompt').first().waitFor();
      await page.getByTestId('visitor-bar').waitFor();
      await shot(page, `tr04-visitor-product-${w}`);

      await page.goto(`/review/${review.id}`);
      await page.getByText('Shared with the world.').waitFor();
      await page.getByTestId('visitor-actions').waitFor();
      await shot(page, `tr05-visitor-review-${w}`);

      await page.goto(`/user/${ayse.username}`);
      await page.getByTestId('review-row').first().waitFor();
      expect(Number(await page.getByTestId('count-reviews').textContent())).toBe(ayseProfile.reviews_count);
      expect(Number(await page.getByTestId('count-followers').textContent())).toBe(2);
      expect(ayseProfile.reviews_count).toBeGreaterThan(0);
      expect(await page.getByTestId('review-row').count()).toBe(ayseProfile.reviews_count);
      await page.getByTestId('profile-follow').waitFor();
      await shot(page, `tr06-visitor-profile-${w}`);
      // where a member would follow, a visitor is asked to sign up
      await page.getByTestId('profile-follow').click();
      await page.waitForURL((url) => url.pathname === '/' && url.searchParams.has('join'));
      await page.getByRole('dialog').waitFor();

      await page.goto(`/user/${hermit.username}`);
      await page.getByTestId('private-profile').waitFor();

      // everything else stays behind the guard
      await page.goto('/home');
      await page.waitForURL((url) => url.pathname === '/');
      await context.close();
    }
  });

  test("what is not there answers 404 with the app's 404 screen, for a visitor and a member alike", async () => {
    const gone = await apiCall<{ id: string }>(world, 'POST', '/reviews', ayse.token, { rating: 2, content: 'Soon gone.' });
    await apiCall(world, 'DELETE', `/reviews/${gone.id}`, ayse.token);
    await apiCall(world, 'POST', `/moderation/reviews/${spamId}/hide`, admin.token, { reason: 'Spam links' });
    const leaving = await register(world, 'Leyla Leaving');
    await apiCall(world, 'DELETE', '/users/me', leaving.token, { password: leaving.password });
    await world.stack.settle();
    const paths = ['/product/no-such-kettle', `/review/${gone.id}`, `/review/${spamId}`, '/user/nobody_at_all', `/user/${leaving.username}`, '/no/such/page'];
    // the server's answer, HTML and link-card HTML alike (a page's later loads may come from the app's service worker)
    for (const path of paths) {
      const res = await fetch(`${world.stack.url}${path}`, { headers: { accept: 'text/html' } });
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 404, 'text/html; charset=utf-8']);
      expect(await res.text()).not.toContain('og:title');
    }
    for (const member of [undefined, burak]) {
      const { context, page } = await contextFor(world, member, { viewport: member ? { width: 1280, height: 860 } : PHONE });
      for (const path of paths) {
        await page.goto(path);
        await page
          .getByTestId('not-found')
          .waitFor({ timeout: 8000 })
          .catch(async (err) => {
            await shot(page, 'tr07-failed');
            throw new Error(`${member ? 'member' : 'visitor'} ${path}: no 404 screen (${String(err).slice(0, 80)})`);
          });
        expect(new URL(page.url()).pathname).toBe(path);
      }
      await shot(page, `tr07-not-found-${member ? 'member' : 'visitor'}`);
      await context.close();
    }
    // the link-card HTML of what is there still answers 200
    expect((await fetch(`${world.stack.url}/product/${product.slug}`)).status).toBe(200);
    expect((await fetch(`${world.stack.url}/user/${hermit.username}`)).status).toBe(200);
  });
  test('a new squad shows only figures from data, and trending shows no change against an empty week', async () => {
    const squad = await apiCall<{ id: string }>(world, 'POST', '/squads', ayse.token, { name: 'Truth Seekers', category: 'General' });
    await world.stack.settle();
    const a = await contextFor(world, ayse);
    const b = await contextFor(world, burak, { viewport: PHONE });
    await a.page.goto(`/squads/${squad.id}`);
    await a.page.getByTestId('squad-stats').waitFor();
    await a.page.getByTestId('squad-messages-week').waitFor();
    expect(await a.page.getByTestId('squad-members-count').textContent()).toBe('1');
    // the founder's reviews of this morning are not the new squad's
    expect(await a.page.getByTestId('squad-reviews-week').textContent()).toBe('0');
    expect(await a.page.getByTestId('squad-messages-week').textContent()).toBe('0');
    expect(await a.page.getByTestId('squad-achievements').count()).toBe(0);
    expect(await a.page.getByText('Squad Rating').count()).toBe(0);
    expect(await a.page.getByText('Activity Level').count()).toBe(0);
    await shot(a.page, 'tr08-new-squad');

    // a member joins and writes in the chat: the week counts it, and the squad earns its first achievement
    const request = await apiCall<{ id: string }>(world, 'POST', `/squads/${squad.id}/request-join`, burak.token, {});
    await apiCall(world, 'POST', `/squads/${squad.id}/join-requests/${request.id}`, ayse.token, { action: 'approve' });
    await world.stack.settle();
    const chat = await apiCall<{ id: string }>(world, 'GET', `/messages/squads/${squad.id}/conversation`, burak.token);
    await apiCall(world, 'POST', `/messages/conversations/${chat.id}/messages`, burak.token, { content: 'Hello truth seekers' });
    await apiCall(world, 'POST', '/reviews', burak.token, { rating: 4, content: 'A review after joining #truthtags' });
    await world.stack.settle();
    for (const { page } of [a, b]) {
      await page.goto(`/squads/${squad.id}`);
      await page.getByTestId('squad-achievements').waitFor();
      expect(await page.getByTestId('squad-members-count').textContent()).toBe('2');
      expect(await page.getByTestId('squad-messages-week').textContent()).toBe('1');
      expect(await page.getByTestId('squad-reviews-week').textContent()).toBe('1');
    }
    await shot(b.page, 'tr09-squad-week-390');

    // every tag is new this week: a count, no "+100%"
    await a.page.goto('/home');
    const tags = a.page.getByTestId('trending-tags');
    await tags.getByText('#truthtags').waitFor();
    expect(await a.page.getByTestId('trending-panel').getByTestId('trend-change').count()).toBe(0);
    expect(await a.page.getByTestId('trending-panel').textContent()).not.toContain('%');
    await shot(a.page, 'tr10-trending-no-invented-change');
    await a.context.close();
    await b.context.close();
  });
});
