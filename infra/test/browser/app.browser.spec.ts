// The SPA in Chromium against the embedded stack (issues 7 and 8): one browser, one context per member.
import { apiCall, composerCleared, contextFor, describeInBrowser, register, shot, solidPng, type Member } from './harness';

// testTimeout in a project config is ignored when the root config runs every project (`npm test`)
jest.setTimeout(120_000);

describeInBrowser('SquadReviews in the browser', (world) => {
  let author: Member; // signs up through the UI
  const reviewText = `Browser review ${Date.now()}: the keyboard feels great`;

  test('a visitor opening /home is sent to the landing page', async () => {
    const { context, page } = await contextFor(world);
    await page.goto('/home');
    await page.getByRole('heading', { name: 'Find Squads for Everything You Love' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await shot(page, '01-landing');
    await context.close();
  });

  test('signs up through the landing modal, posts a review with an image, and the bell shows a like', async () => {
    const { context, page } = await contextFor(world);
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign up' }).first().click();
    const form = page.getByTestId('auth-form');
    await form.getByLabel('Full Name').fill('Deniz Browser');
    const email = `deniz.${Date.now()}@example.test`;
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill('lamp-desk-battery-42');
    await shot(page, '02-signup-modal');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/home');
    const stored = await page.evaluate(() => ({ token: localStorage.getItem('token'), user: JSON.parse(localStorage.getItem('user') ?? 'null') }));
    expect(stored.token).toBeTruthy();
    author = { id: stored.user.id, username: stored.user.username, name: 'Deniz Browser', email, password: 'lamp-desk-battery-42', token: stored.token! };

    // composer: text + image upload, then 'Post Review'
    const post = page.getByTestId('post-review');
    await expect(post.isDisabled()).resolves.toBe(true);
    await page.getByTestId('composer-text').fill(reviewText);
    await page.getByTestId('composer-file').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: solidPng() });
    await page.locator('.composer .preview img').waitFor();
    await page.waitForFunction(() => !document.querySelector('.composer .preview-state'));
    await post.click();
    const card = page.getByTestId('review-card').filter({ hasText: reviewText });
    await card.waitFor();
    await composerCleared(page);
    const img = card.locator('.image-grid img').first();
    await img.waitFor();
    await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
    await shot(page, '03-home-posted');

    // a second member follows from the profile, sees the review in the feed, likes it
    const reader = await register(world, 'Mert Reader');
    const second = await contextFor(world, reader);
    await second.page.goto(`/user/${author.username}`);
    const follow = second.page.getByTestId('profile-follow');
    await follow.filter({ hasText: 'Follow' }).waitFor();
    await follow.click();
    await follow.filter({ hasText: 'Unfollow' }).waitFor();
    await shot(second.page, '04-profile-following');
    await world.stack.settle();
    await second.page.goto('/home');
    const seen = second.page.getByTestId('review-card').filter({ hasText: reviewText });
    await seen.waitFor();
    await seen.getByTestId('like-button').click();
    await seen.getByTestId('like-count').filter({ hasText: '1' }).waitFor();
    await shot(second.page, '05-reader-feed-liked');
    await world.stack.settle();

    // the author's bell: badge and dropdown items (follow + like)
    const badge = page.getByTestId('bell-badge');
    await badge.waitFor({ timeout: 15_000 });
    expect(Number(await badge.innerText())).toBeGreaterThanOrEqual(1);
    await page.getByTestId('bell').click();
    const items = page.getByTestId('notif-item');
    await items.first().waitFor();
    const texts = (await items.allInnerTexts()).join('\n');
    expect(texts).toContain('Mert Reader liked your review');
    expect(texts).toContain('Mert Reader started following you');
    expect(texts).not.toContain('Mert Reader Mert Reader');
    await shot(page, '06-bell-dropdown');
    await second.context.close();
    await context.close();
  });

  test('a private account: request sent, accepted, then following', async () => {
    const privateOne = await register(world, 'Cem Private');
    const asker = await register(world, 'Ada Asker');
    const c = await contextFor(world, privateOne);
    await c.page.goto('/settings');
    await c.page.getByRole('button', { name: 'Privacy', exact: true }).click();
    const privacy = c.page.getByTestId('settings-privacy');
    await privacy.locator('input[value=private]').check();
    await shot(c.page, '07-settings-privacy');
    await privacy.getByRole('button', { name: 'Save' }).click();
    await c.page.getByText('Settings updated successfully!').waitFor();
    await world.stack.settle();

    const a = await contextFor(world, asker);
    await a.page.goto(`/user/${privateOne.username}`);
    const follow = a.page.getByTestId('profile-follow');
    await follow.filter({ hasText: 'Follow' }).waitFor();
    await follow.click();
    await follow.filter({ hasText: 'Request Sent' }).waitFor();
    await shot(a.page, '08-request-sent');
    await world.stack.settle();

    await c.page.goto('/profile');
    const requests = c.page.getByTestId('follow-requests');
    await requests.getByText('Ada Asker').waitFor();
    await shot(c.page, '09-own-profile-requests');
    await requests.getByRole('button', { name: /Kabul|Accept/ }).first().click();
    await requests.getByText('Ada Asker').waitFor({ state: 'detached' });
    await world.stack.settle();

    await a.page.reload();
    await a.page.getByTestId('profile-follow').filter({ hasText: 'Unfollow' }).waitFor();
    await a.context.close();
    await c.context.close();
  });

  test('two members chat live and see each other typing', async () => {
    const ali = await register(world, 'Ali Chat');
    const bora = await register(world, 'Bora Chat');
    const a = await contextFor(world, ali);
    const b = await contextFor(world, bora);
    await a.page.goto(`/messages?to=${bora.id}`);
    const aInput = a.page.getByTestId('message-input');
    await aInput.waitFor();
    await aInput.fill('Merhaba Bora!');
    await aInput.press('Enter');
    await a.page.getByTestId('message').filter({ hasText: 'Merhaba Bora!' }).waitFor();
    await world.stack.settle();

    await b.page.goto('/messages');
    await b.page.getByTestId('conversation-item').filter({ hasText: 'Ali Chat' }).click();
    await b.page.getByTestId('message').filter({ hasText: 'Merhaba Bora!' }).waitFor();
    // B types: A sees the indicator; B sends: A gets the message without a reload
    const bInput = b.page.getByTestId('message-input');
    await bInput.pressSequentially('Selam Ali', { delay: 30 });
    await a.page.getByTestId('typing-indicator').filter({ hasText: 'Bora Chat is typing...' }).waitFor();
    await shot(a.page, '10-chat-typing');
    await bInput.press('Enter');
    await a.page.getByTestId('message').filter({ hasText: 'Selam Ali' }).waitFor();
    await a.page.getByTestId('typing-indicator').filter({ hasText: 'is typing' }).waitFor({ state: 'detached' }).catch(() => undefined);
    await shot(a.page, '11-chat-live');
    await a.context.close();
    await b.context.close();
  });

  test('squad: created, join requested with a message, approved, member chats', async () => {
    const admin = await register(world, 'Selin Admin');
    const joiner = await register(world, 'Kaan Joiner');
    const a = await contextFor(world, admin);
    const squadName = `Espresso Nerds ${Date.now() % 100000}`;
    await a.page.goto('/create-squad');
    const form = a.page.getByTestId('create-squad-form');
    await form.getByLabel('Squad Name').fill(squadName);
    await form.getByLabel('Description').fill('Grinders, beans and latte art.');
    await form.getByRole('button', { name: 'Create Squad' }).click();
    // a new squad opens on its own page (issue 43 §5)
    await a.page.waitForURL('**/squads/*');
    const squadUrl = new URL(a.page.url()).pathname;
    await a.page.getByTestId('squad-detail').waitFor();
    await shot(a.page, '12-squad-admin');
    await world.stack.settle();

    const j = await contextFor(world, joiner);
    await j.page.goto(squadUrl);
    await j.page.getByTestId('request-join').filter({ hasText: 'Request to Join' }).click();
    const modal = j.page.getByTestId('join-modal');
    await j.page.getByText(`Request to Join ${squadName}`).waitFor();
    await modal.getByText("Send a message to the squad admins explaining why you'd like to join (optional):").waitFor();
    await modal.getByPlaceholder("I'd like to join because...").fill('I roast my own beans.');
    await shot(j.page, '13-join-modal');
    await modal.getByRole('button', { name: 'Send Request' }).click();
    await j.page.getByTestId('request-pending').filter({ hasText: 'Request Pending' }).waitFor();
    await world.stack.settle();

    await a.page.reload();
    await a.page.getByTestId('manage-requests').filter({ hasText: 'Manage Requests (1)' }).click();
    const panel = a.page.getByTestId('join-requests');
    await panel.getByText('I roast my own beans.').waitFor();
    await shot(a.page, '14-join-requests');
    await panel.getByRole('button', { name: 'Approve' }).click();
    await panel.getByText('Kaan Joiner').waitFor({ state: 'detached' });
    await world.stack.settle();

    await j.page.reload();
    await j.page.getByTestId('squad-chat').click();
    await j.page.waitForURL('**/messages/*');
    const input = j.page.getByTestId('message-input');
    await input.fill('Hi squad, thanks for having me!');
    await input.press('Enter');
    await j.page.getByTestId('message').filter({ hasText: 'Hi squad, thanks for having me!' }).waitFor();
    await shot(j.page, '15-squad-chat');
    await a.context.close();
    await j.context.close();
  });

  test('product: created with an image, reviewed from its page, saved and listed', async () => {
    const maker = await register(world, 'Ece Maker');
    const { context, page } = await contextFor(world, maker);
    const name = `Moka Pot ${Date.now() % 100000}`;
    await page.goto('/create-product');
    const form = page.getByTestId('create-product-form');
    await form.getByLabel('Product Name').fill(name);
    await form.getByLabel('Brand').fill('Bialetti');
    await form.getByLabel('Price').fill('34.5');
    await form.getByLabel('Category').selectOption('Kitchen');
    await form.getByLabel('Description').fill('Stovetop espresso maker.');
    await form.getByPlaceholder('Add a feature').fill('Aluminium body');
    await form.getByRole('button', { name: 'Add' }).click();
    await page.getByTestId('product-file').setInputFiles({ name: 'pot.png', mimeType: 'image/png', buffer: solidPng([37, 99, 235]) });
    await form.locator('img').first().waitFor();
    await shot(page, '16-create-product');
    await form.getByRole('button', { name: 'Create Product' }).click();
    await page.waitForURL('**/product/*');
    const detail = page.getByTestId('product-detail');
    await detail.getByRole('heading', { name }).waitFor();
    await detail.getByText('$34.50').waitFor();
    await detail.getByText('Aluminium body').waitFor();
    const hero = detail.locator('img.hero-img');
    await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await hero.elementHandle());

    await page.getByTestId('write-review').click();
    const reviewForm = page.getByTestId('review-form');
    // the product page's composer is Home's, its product fixed; the stars are chosen, never preset (issue 43 §5)
    await reviewForm.getByTestId('composer-text').fill('Makes a strong cup in five minutes.');
    expect(await reviewForm.getByTestId('post-review').isDisabled()).toBe(true);
    await reviewForm.getByRole('button', { name: '4.5 stars' }).click();
    await reviewForm.getByTestId('post-review').click();
    await page.getByTestId('review-card').filter({ hasText: 'Makes a strong cup in five minutes.' }).waitFor();
    await detail.getByText('(1 reviews)').waitFor();
    await page.getByTestId('save-product').click();
    await page.getByTestId('save-product').filter({ hasText: 'Saved' }).waitFor();
    await shot(page, '17-product-detail');

    await page.goto('/saved');
    await page.getByTestId('saved-page').getByText(name).waitFor();
    await shot(page, '18-saved');
    await context.close();
  });

  test('settings: choosing dark in Appearance turns the page dark', async () => {
    const member = await register(world, 'Nil Theme');
    const { context, page } = await contextFor(world, member, { dark: false });
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Appearance', exact: true }).click();
    const appearance = page.getByTestId('settings-appearance');
    await appearance.getByLabel('Theme').selectOption('dark');
    await appearance.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings updated successfully!').waitFor();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r + g + b).toBeLessThan(200);
    expect(await page.evaluate(() => localStorage.getItem('darkMode'))).toBe('true');
    await shot(page, '19-settings-dark');
    await context.close();
  });

  test('product page: the sort selector asks the API for the order', async () => {
    const seller = await register(world, 'Oya Seller');
    const product = await apiCall<{ id: string; slug?: string }>(world, 'POST', '/products', seller.token, {
      name: `Desk Fan ${Date.now() % 100000}`,
      brand: 'Breeze',
      price: 25,
      category: 'Home',
      description: 'Quiet desk fan.',
      features: [],
    });
    for (const [who, rating] of [
      ['Ali Two', 2],
      ['Banu Five', 5],
      ['Cem Three', 3],
    ] as const) {
      const m = await register(world, who);
      await apiCall(world, 'POST', '/reviews', m.token, { product_id: product.id, rating, title: 'Desk Fan', content: `${who} gives ${rating}` });
    }
    await world.stack.settle();
    const { context, page } = await contextFor(world, seller);
    const sorted: string[] = [];
    page.on('request', (r) => {
      const sort = new URL(r.url()).searchParams.get('sort');
      if (r.url().includes('/api/reviews?') && sort) sorted.push(sort);
    });
    await page.goto(`/product/${product.slug ?? product.id}`);
    const cards = page.getByTestId('review-card');
    await cards.nth(2).waitFor();
    const order = async () => (await cards.allInnerTexts()).map((t) => Number(/gives (\d)/.exec(t)?.[1]));
    await page.getByTestId('review-sort').selectOption({ label: 'Lowest Rated' });
    await page.waitForFunction(() => document.querySelector('[data-testid="review-card"]')?.textContent?.includes('gives 2'));
    expect(await order()).toEqual([2, 3, 5]);
    await page.getByTestId('review-sort').selectOption({ label: 'Highest Rated' });
    await page.waitForFunction(() => document.querySelector('[data-testid="review-card"]')?.textContent?.includes('gives 5'));
    expect(await order()).toEqual([5, 3, 2]);
    expect(sorted).toEqual(expect.arrayContaining(['rating_asc', 'rating_desc']));
    await shot(page, '20-product-sorted');
    await context.close();
  });

  test('bell: scrolling the dropdown to its end marks everything read after 1 s', async () => {
    const star = await register(world, 'Pelin Star');
    for (let i = 0; i < 6; i++) {
      const fan = await register(world, `Fan ${i}`);
      await apiCall(world, 'POST', `/follows/users/${star.id}`, fan.token);
    }
    await world.stack.settle();
    const { context, page } = await contextFor(world, star);
    await page.goto('/home');
    await page.getByTestId('bell-badge').filter({ hasText: '6' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('bell').click();
    await page.getByTestId('panel-badge').filter({ hasText: '6' }).waitFor();
    // the list loads once the page is idle or the bell opens, so it may still be on its way here
    await page.getByTestId('notif-item').nth(4).waitFor();
    expect(await page.getByTestId('notif-item').count()).toBe(5);
    await shot(page, '21-bell-before-scroll');
    const scrolledAt = Date.now();
    await page.locator('.notif-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
      el.dispatchEvent(new Event('scroll'));
    });
    await page.getByTestId('bell-badge').waitFor({ state: 'detached', timeout: 10_000 });
    expect(Date.now() - scrolledAt).toBeGreaterThanOrEqual(1000);
    const count = await apiCall<{ unread_count: number }>(world, 'GET', '/notifications/unread-count', star.token);
    expect(count.unread_count).toBe(0);
    await shot(page, '22-bell-all-read');
    await context.close();
  });

  test('phone width: the mobile menu lists the spec\'s seven entries and the four screens a phone could not reach', async () => {
    const member = await register(world, 'Mina Mobile');
    const { context, page } = await contextFor(world, member, { viewport: { width: 375, height: 760 } });
    await page.goto('/home');
    await expect(page.getByTestId('side-menu').isVisible()).resolves.toBe(false);
    await page.getByTestId('mobile-menu-toggle').click();
    const menu = page.getByTestId('mobile-menu');
    await menu.waitFor();
    expect((await menu.locator('a, button').allInnerTexts()).map((t) => t.trim())).toEqual([
      'Home',
      'Products',
      'Friends',
      'Saved',
      'Explore',
      'My Squads',
      'My Reviews',
      'Messages',
      'Notifications',
      'Profile',
      'Settings',
      'Logout',
    ]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, '23-mobile-menu');
    await menu.getByText('Friends').click();
    await page.waitForURL('**/friends');
    await context.close();
  });

  test('a screen whose code cannot load shows the React Mounting Error page', async () => {
    const member = await register(world, 'Rana Broken');
    const { context, page } = await contextFor(world, member);
    await page.route(/\/assets\/HomePage-[^/]+\.js$/, (route) => route.abort());
    await page.goto('/home');
    await page.getByRole('heading', { name: 'React Mounting Error' }).waitFor();
    await expect(page.getByTestId('mounting-error').innerText()).resolves.toMatch(/HomePage|dynamically imported module|Failed to fetch/i);
    await shot(page, '24-mounting-error');
    await context.close();
  });
});
