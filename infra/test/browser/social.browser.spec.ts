// Part 1 flows in Chromium: guard, sign-up, composer with an image, follow, feed, like, bell, private follow request.
import { browserAvailable, contextFor, register, shot, solidPng, startWorld, type Member, type World } from './harness';

const run = browserAvailable() ? describe : describe.skip;

run('social flows in the browser', () => {
  let world: World;
  let author: Member; // signs up through the UI
  const reviewText = `Browser review ${Date.now()}: the keyboard feels great`;

  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

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
    await form.getByLabel('Password').fill('secret123');
    await shot(page, '02-signup-modal');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/home');
    const stored = await page.evaluate(() => ({ token: localStorage.getItem('token'), user: JSON.parse(localStorage.getItem('user') ?? 'null') }));
    expect(stored.token).toBeTruthy();
    author = { id: stored.user.id, username: stored.user.username, name: 'Deniz Browser', email, password: 'secret123', token: stored.token! };

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
    await expect(page.getByTestId('composer-text').inputValue()).resolves.toBe('');
    const img = card.locator('.image-grid img').first();
    await img.waitFor();
    await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
    await shot(page, '03-home-posted');

    // a second member follows from the profile, sees the review in the feed, likes it
    const reader = await register(world, 'Mert Reader');
    const second = await contextFor(world, reader);
    await second.page.goto(`/user/${author.username}`);
    const follow = second.page.getByTestId('profile-follow');
    await follow.filter({ hasText: 'Takip Et' }).waitFor();
    await follow.click();
    await follow.filter({ hasText: 'Takibi Bırak' }).waitFor();
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
    expect(texts).toContain('Mert Reader');
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
    await follow.filter({ hasText: 'Takip Et' }).waitFor();
    await follow.click();
    await follow.filter({ hasText: 'İstek Gönderildi' }).waitFor();
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
    await a.page.getByTestId('profile-follow').filter({ hasText: 'Takibi Bırak' }).waitFor();
    await a.context.close();
    await c.context.close();
  });
});
