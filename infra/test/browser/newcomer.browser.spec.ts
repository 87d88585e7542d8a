// Issue 19: what a new member tripped over, each checked in Chromium against the embedded stack.
import { describeInBrowser, apiCall, contextFor, register, shot, solidPng } from './harness';

jest.setTimeout(120_000);

describeInBrowser('a new member in the browser (issue 19)', (world) => {

  test('live events come over a websocket and a burst of notifications costs a bounded number of requests', async () => {
    const star = await register(world, 'Burst Star');
    const fans = await Promise.all(Array.from({ length: 24 }, (_, i) => register(world, `Burst Fan ${i}`)));
    const { context, page } = await contextFor(world, star);
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto('/home');
    await page.getByTestId('bell').waitFor();
    for (let waited = 0; !sockets.some((u) => u.includes('/socket.io/') && u.includes('transport=websocket')) && waited < 10_000; waited += 200)
      await page.waitForTimeout(200);
    expect(sockets.filter((u) => u.includes('transport=websocket'))).toHaveLength(1);
    await page.waitForTimeout(1500); // the first page's own requests settle

    const api: string[] = [];
    const polling: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) api.push(u.pathname);
      if (u.pathname.startsWith('/socket.io/') && u.searchParams.get('transport') === 'polling') polling.push(u.pathname);
    });
    for (const fan of fans) await apiCall(world, 'POST', `/follows/users/${star.id}`, fan.token);
    await world.stack.settle();
    await page.getByTestId('bell-badge').filter({ hasText: '24' }).waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1500); // the trailing refetch window
    await shot(page, 'n01-burst-bell');
    // 24 events: at most a few coalesced refetches of the two notification queries, not 3 per event
    expect(api.length).toBeLessThanOrEqual(12);
    expect(polling).toEqual([]);
    await context.close();
  });

  test('/saved: switching tabs with a saved product and a saved review draws each tab', async () => {
    const saver = await register(world, 'Sena Saver');
    const product = await apiCall<{ id: string }>(world, 'POST', '/products', saver.token, {
      name: `Saved Kettle ${Date.now() % 100000}`,
      brand: 'Boil',
      price: 20,
      category: 'Kitchen',
      description: 'A kettle.',
      features: [],
    });
    const review = await apiCall<{ id: string }>(world, 'POST', '/reviews', saver.token, {
      product_id: product.id,
      rating: 4,
      title: 'Saved Kettle',
      content: 'Boils fast, saved for later.',
    });
    await apiCall(world, 'POST', `/saved/products/${product.id}`, saver.token);
    await apiCall(world, 'POST', `/saved/reviews/${review.id}`, saver.token);
    await world.stack.settle();
    const { context, page } = await contextFor(world, saver);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/saved');
    await page.getByTestId('saved-page').getByText('Saved Kettle').first().waitFor();
    await page.getByTestId('saved-tab-reviews').click();
    await page.getByTestId('review-card').filter({ hasText: 'Boils fast, saved for later.' }).waitFor();
    await shot(page, 'n02-saved-reviews');
    await page.getByTestId('saved-tab-products').click();
    await page.getByTestId('saved-page').getByText('Saved Kettle').first().waitFor();
    await page.getByTestId('saved-tab-reviews').click();
    await page.getByTestId('review-card').first().waitFor();
    expect(await page.getByRole('heading', { name: 'React Mounting Error' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('settings: an uploaded avatar (/api/media/...) is saved with the profile', async () => {
    const member = await register(world, 'Ava Avatar');
    const { context, page } = await contextFor(world, member);
    await page.goto('/settings');
    const form = page.getByTestId('settings-profile');
    await form.waitFor();
    await page.getByTestId('avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: solidPng([22, 163, 74], 32) });
    await page.waitForFunction(() => document.querySelector('[data-testid="settings-profile"] img.avatar')?.getAttribute('src')?.startsWith('/api/media/'));
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    const me = await apiCall<{ avatar: string | null }>(world, 'GET', '/auth/me', member.token);
    expect(me.avatar).toMatch(/^\/api\/media\//);
    // the email is shown but cannot be edited
    await expect(form.locator('input[name=email]').getAttribute('readonly')).resolves.not.toBeNull();
    await shot(page, 'n03-avatar-saved');
    await context.close();
  });

  test('an unknown address shows a not-found page and keeps its URL', async () => {
    const member = await register(world, 'Nora Nowhere');
    const { context, page } = await contextFor(world, member);
    await page.goto('/this/does-not-exist');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/this/does-not-exist');
    await shot(page, 'n04-not-found');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await page.waitForURL('**/home');
    await context.close();
  });

  test('phone 390x844: /messages fits, an open chat goes back to the list', async () => {
    const ali = await register(world, 'Pia Phone');
    const bora = await register(world, 'Quinn Phone With A Rather Long Display Name');
    const conv = await apiCall<{ id: string }>(world, 'POST', '/messages/conversations', ali.token, { memberIds: [bora.id] });
    await apiCall(world, 'POST', `/messages/conversations/${conv.id}/messages`, bora.token, { content: 'Hello from a phone test, with a message long enough to be cut' });
    await world.stack.settle();
    const { context, page } = await contextFor(world, ali, { viewport: { width: 390, height: 844 } });
    await page.goto('/messages');
    const item = page.getByTestId('conversation-item').first();
    await item.waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const newMessage = await page.getByRole('button', { name: 'New Message' }).first().boundingBox();
    expect(newMessage!.x + newMessage!.width).toBeLessThanOrEqual(390);
    const badge = await page.getByTestId('conversation-unread').first().boundingBox();
    expect(badge!.x + badge!.width).toBeLessThanOrEqual(390);
    await shot(page, 'n05-phone-messages');
    await item.click();
    await page.getByTestId('message-input').waitFor();
    await shot(page, 'n06-phone-chat');
    await page.getByTestId('chat-back').click();
    await page.waitForURL((u) => u.pathname === '/messages');
    await page.getByTestId('conversation-item').first().waitFor();
    await context.close();
  });

  test('own review: edited with the "edited" label, then deleted', async () => {
    const author = await register(world, 'Eda Editor');
    const product = await apiCall<{ id: string }>(world, 'POST', '/products', author.token, {
      name: `Edit Lamp ${Date.now() % 100000}`,
      brand: 'Lux',
      price: 15,
      category: 'Home',
      description: 'A lamp.',
      features: [],
    });
    await apiCall(world, 'POST', '/reviews', author.token, { product_id: product.id, rating: 3, title: 'Edit Lamp', content: 'First thoughts on the lamp.' });
    await world.stack.settle();
    const { context, page } = await contextFor(world, author);
    await page.goto('/home');
    const card = page.getByTestId('review-card').filter({ hasText: 'First thoughts on the lamp.' });
    await card.waitFor();
    await card.getByRole('button', { name: 'More actions' }).click();
    await card.getByTestId('review-edit-button').click();
    const edit = page.getByTestId('review-edit'); // the form replaces the text the card was found by
    await edit.getByLabel('Review text').fill('Second thoughts: the lamp is great.');
    await edit.getByRole('button', { name: 'Save' }).click();
    const updated = page.getByTestId('review-card').filter({ hasText: 'Second thoughts: the lamp is great.' });
    await updated.getByTestId('edited-label').filter({ hasText: 'edited' }).waitFor();
    await shot(page, 'n07-review-edited');
    page.once('dialog', (d) => void d.accept());
    await updated.getByRole('button', { name: 'More actions' }).click();
    await updated.getByTestId('review-delete-button').click();
    await updated.waitFor({ state: 'detached' });
    await context.close();
  });
});
