import { createHmac } from 'node:crypto';
import { apiCall, composerCleared, contextFor, describeInBrowser, register, shot, solidPng, type Member } from './harness';

jest.setTimeout(180_000);

const PHONE = { width: 390, height: 844 };
/** Labels in either language: the suite holds whichever language the account starts in. */
const MORE = /^(Diğer işlemler|More actions)$/;
const SPAM = /^(Spam veya reklam|Spam or advertising)$/;
const SEND_REPORT = /^(Şikayet et|Send report)$/;
const CLEAR_SEARCH = /^(Aramayı temizle|Clear search)$/;
const TWO_FACTOR = /^(İki adımlı giriş|Two-factor)$/;
const DELETE_ACCOUNT = /^(Hesabı sil|Delete account)$/;

/**
 * Issue 43 §4 and §5, two members side by side: what one does reaches the other's open page without a
 * reload (a join request, its approval, a squad role, a report in the moderation queue), and the
 * small truths of the screens (labels, landings, menus, the search box, the account's safeguards).
 */
describeInBrowser('live pages and the small truths (issue 43 §4, §5)', (world) => {
  let admin: Member;
  beforeAll(async () => {
    // the site's first account is its admin: a moderator of the queue
    admin = await register(world, 'Ada Admin');
  });

  test('a join request, its approval and a role change reach both sides of the squad page live (1280 px)', async () => {
    const ayse = await register(world, 'Ayse Live');
    const burak = await register(world, 'Burak Live');
    const squad = await apiCall<{ id: string }>(world, 'POST', '/squads', ayse.token, { name: 'Live Beans', category: 'Food', description: 'Coffee, live' });

    const a = await contextFor(world, ayse);
    const b = await contextFor(world, burak);
    await a.page.goto(`/squads/${squad.id}`);
    await a.page.getByTestId('squad-detail').waitFor();
    expect(await a.page.getByTestId('manage-requests').count()).toBe(0);

    // Burak finds the squad on Explore's squads tab: a join is a request, and says so
    await b.page.goto('/explore?tab=squads');
    const card = b.page.getByTestId('squad-card').filter({ hasText: 'Live Beans' });
    await card.waitFor();
    expect((await card.getByTestId('join-squad').textContent())?.trim()).toBe('Request to Join');
    await card.getByRole('link', { name: 'View Details' }).click();
    await b.page.getByTestId('request-join').click();
    await b.page.getByTestId('join-modal').getByRole('button', { name: 'Send Request' }).click();
    await b.page.getByTestId('request-pending').waitFor();

    // ...and Ayse's open page shows it without a reload
    const manage = a.page.getByTestId('manage-requests');
    await manage.waitFor();
    expect((await manage.textContent())?.trim()).toBe('Manage Requests (1)');
    await manage.click();
    await shot(a.page, 'lv01-request-arrives-live');
    await a.page.getByTestId('join-requests').getByRole('button', { name: 'Approve' }).click();

    // Burak's open page turns into a member's without a reload
    await b.page.getByRole('button', { name: 'Leave Squad' }).waitFor();
    expect(await b.page.getByTestId('request-pending').count()).toBe(0);
    await shot(b.page, 'lv02-approval-arrives-live');

    // Ayse makes him a moderator: his own row says so, live
    const row = a.page.getByTestId('squad-member').filter({ hasText: 'Burak Live' });
    await row.getByTestId('member-role').selectOption('moderator');
    const his = b.page.getByTestId('squad-member').filter({ hasText: 'Burak Live' });
    await his.locator('.pill-moderator').waitFor();
    await shot(b.page, 'lv03-role-arrives-live');

    await a.context.close();
    await b.context.close();
  });

  test('a new report reaches the open moderation queue live; no Report on one\'s own review; a phone keeps Messages, one clear button and a wide chat input (390 px)', async () => {
    const author = await register(world, 'Ali Author Live');
    const reporter = await register(world, 'Rana Reporter Live');
    await apiCall(world, 'POST', `/follows/users/${author.id}`, reporter.token);
    const text = `Buy my course at spam dot example ${Date.now() % 100000}`;
    await apiCall(world, 'POST', '/reviews', author.token, { content: text });
    const own = `My own kettle note ${Date.now() % 100000}`;
    await apiCall(world, 'POST', '/reviews', reporter.token, { content: own });
    const dm = (await apiCall<{ id: string }>(world, 'POST', '/messages/conversations', reporter.token, { memberIds: [author.id] })).id;
    await world.stack.settle();

    const adm = await contextFor(world, admin, { viewport: PHONE });
    await adm.page.goto('/moderation');
    await adm.page.getByTestId('moderation-page').waitFor();
    expect(await adm.page.getByTestId('moderation-report').count()).toBe(0);

    const rep = await contextFor(world, reporter, { viewport: PHONE });
    await rep.page.goto('/home');
    // her own review offers no Report; the author's does
    const mine = rep.page.getByTestId('review-card').filter({ hasText: own });
    await mine.getByRole('button', { name: MORE }).click();
    await mine.getByTestId('review-edit-button').waitFor();
    expect(await mine.getByTestId('review-report-button').count()).toBe(0);
    await mine.getByRole('button', { name: MORE }).click();
    const theirs = rep.page.getByTestId('review-card').filter({ hasText: text });
    await theirs.getByRole('button', { name: MORE }).click();
    await theirs.getByTestId('review-report-button').click();
    const dialog = rep.page.getByTestId('report-dialog');
    await dialog.getByLabel(SPAM).check();
    await dialog.getByRole('button', { name: SEND_REPORT }).click();
    await dialog.waitFor({ state: 'detached' });

    // the admin's open queue shows it without a reload
    await adm.page.getByTestId('moderation-report').filter({ hasText: text }).waitFor();
    await shot(adm.page, 'lv04-report-arrives-live-390');

    // the phone's menu reaches Messages
    await rep.page.getByTestId('mobile-menu-toggle').click();
    await rep.page.getByTestId('mobile-menu').getByRole('link', { name: 'Messages' }).click();
    await rep.page.waitForURL('**/messages');

    // the search box has one clear button: the app's, not the browser's as well
    const search = rep.page.getByTestId('search-box').locator('input');
    await search.fill('kettle');
    expect(await rep.page.getByTestId('search-box').getByRole('button', { name: CLEAR_SEARCH }).count()).toBe(1);
    // Chromium draws its own clear button in a search field unless the page's style hides it (its shadow part is not reachable)
    const nativeHidden = await search.evaluate(() =>
      Array.from(document.styleSheets).some((sheet) =>
        Array.from(sheet.cssRules).some((rule) => rule instanceof CSSStyleRule && rule.selectorText.includes('::-webkit-search-cancel-button') && rule.style.display === 'none'),
      ),
    );
    expect(nativeHidden).toBe(true);
    await shot(rep.page, 'lv05-search-one-clear-390');
    await search.fill('');

    // the chat's message box keeps its width on a phone, nothing wider than the screen
    await rep.page.goto(`/messages/${dm}`);
    const input = rep.page.getByTestId('message-input');
    await input.waitFor();
    const widths = await rep.page.evaluate(() => {
      const box = document.querySelector('.chat-input') as HTMLElement;
      const text = document.querySelector('[data-testid="message-input"]') as HTMLElement;
      return { box: box.getBoundingClientRect().width, text: text.getBoundingClientRect().width, page: document.documentElement.scrollWidth };
    });
    expect(widths.text).toBeGreaterThanOrEqual(widths.box * 0.5);
    expect(widths.page).toBeLessThanOrEqual(390);
    await shot(rep.page, 'lv06-chat-input-390');

    await adm.context.close();
    await rep.context.close();
  });

  test('a new squad opens on its page; Explore Squads opens the squads tab; search has a Tags group; two-factor shows its key; deleting asks for a code (1280 px)', async () => {
    const cem = await register(world, 'Cem Small Truths');
    await apiCall(world, 'POST', '/reviews', cem.token, { content: 'Slow mornings with #pourover coffee' });
    await world.stack.settle();
    const c = await contextFor(world, cem);

    await c.page.goto('/my-squads');
    await c.page.getByTestId('my-squads').getByRole('link', { name: /Explore Squads|Squad keşfet/ }).first().click();
    await c.page.waitForURL('**/explore?tab=squads');
    expect(await c.page.locator('.tab.active').textContent()).toBe('Squads');

    await c.page.goto('/create-squad');
    const form = c.page.getByTestId('create-squad-form');
    await form.locator('input[name="name"]').fill('Pour Over Club');
    await form.locator('.btn-primary').click();
    await c.page.waitForURL(/\/squads\/[^/]+$/);
    await c.page.getByTestId('squad-detail').getByText('Pour Over Club').first().waitFor();

    // the search's Tags group leads to the tag's page
    await c.page.goto('/search?q=%23pourover');
    const tags = c.page.getByTestId('search-group-tags');
    await tags.getByRole('link', { name: '#pourover' }).waitFor();
    await shot(c.page, 'lv07-search-tags');
    await tags.getByRole('link', { name: '#pourover' }).click();
    await c.page.waitForURL('**/tags/pourover');

    // two-factor setup: the QR code with its alt text, and the key as text beside it, with a copy button
    await c.page.goto('/settings');
    await c.page.getByRole('button', { name: TWO_FACTOR }).click();
    const section = c.page.getByTestId('settings-two-factor');
    await section.locator('.btn-primary').click();
    const qr = c.page.getByTestId('two-factor-qr');
    await qr.waitFor();
    expect(await qr.getAttribute('alt')).toBeTruthy();
    const key = ((await c.page.getByTestId('two-factor-key').textContent()) ?? '').replace(/\s/g, '');
    expect(key).toMatch(/^[A-Z2-7]{16,}$/);
    await shot(c.page, 'lv08-two-factor-key');
    await section.locator('input[name="code"]').fill(totp(key));
    await section.locator('button[type="submit"]').click();
    await c.page.getByTestId('recovery-codes').waitFor();

    // deleting the account now asks for a code, and the server checks it
    await c.page.getByRole('button', { name: DELETE_ACCOUNT }).click();
    const del = c.page.getByTestId('settings-delete-account');
    await del.locator('input[type="password"]').fill(cem.password);
    const code = del.getByTestId('delete-account-code');
    await code.waitFor();
    await code.fill('000000');
    await del.locator('button.btn-danger').click();
    await del.getByRole('alert').waitFor();
    expect(await apiCall(world, 'GET', '/auth/me', cem.token)).toMatchObject({ id: cem.id });
    await shot(c.page, 'lv09-delete-asks-code');
    await c.context.close();
  });

  test('one composer on Home and on a product page: picker, half stars with none preset, photos with alt text kept at their size, spoilers, #tags (1280 px)', async () => {
    const dila = await register(world, 'Dila Composer');
    const kettle = await apiCall<{ id: string; name: string }>(world, 'POST', '/products', dila.token, { name: 'Copper Kettle', brand: 'Demir', price: 40, category: 'Home' });
    const grinder = await apiCall<{ id: string; name: string }>(world, 'POST', '/products', dila.token, { name: 'Hand Grinder', brand: 'Demir', price: 25, category: 'Home' });
    await world.stack.settle();
    const d = await contextFor(world, dila);

    await d.page.goto('/home');
    const composer = d.page.getByTestId('composer');
    await d.page.getByTestId('composer-text').fill('Boils in three minutes #demlik');
    await composer.getByTestId('composer-product').click();
    await composer.getByTestId('product-picker-search').fill('Copper');
    await composer.getByTestId('product-picker').getByRole('button', { name: /Copper Kettle/ }).click();
    await composer.getByTestId('linked-product').getByText('Copper Kettle').waitFor();
    // a product's review waits for its stars: none is preset
    expect(await composer.getByTestId('composer-rating').getByRole('group').getAttribute('data-value')).toBe('0');
    expect(await d.page.getByTestId('post-review').isDisabled()).toBe(true);
    await composer.getByTestId('composer-rating').getByRole('button', { name: '3.5 stars' }).click();
    await d.page.getByTestId('composer-file').setInputFiles({ name: 'tiny.png', mimeType: 'image/png', buffer: solidPng([30, 160, 90], 16) });
    await d.page.getByTestId('composer-alt').fill('A tiny green square');
    await d.page.getByTestId('composer-spoilers').check();
    await shot(d.page, 'lv10-composer-home');
    await d.page.waitForFunction(() => !(document.querySelector('[data-testid="post-review"]') as HTMLButtonElement).disabled);
    await d.page.getByTestId('post-review').click();
    await composerCleared(d.page);

    // the posted card: the stars chosen, the spoiler guard; opened, its #tag links and its small photo keeps its size
    const card = d.page.getByTestId('review-card').filter({ hasText: 'Copper Kettle' }).first();
    await card.waitFor();
    await card.getByRole('img', { name: '3.5 of 5 stars' }).waitFor();
    await card.getByTestId('spoiler-reveal').click();
    await card.getByRole('link', { name: '#demlik' }).waitFor();
    const photo = card.getByRole('img', { name: 'A tiny green square' });
    await photo.waitFor();
    await d.page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await photo.elementHandle());
    const box = await photo.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(16);
    await shot(d.page, 'lv11-small-photo-kept');

    // the product page writes with the same composer, its product fixed
    await d.page.goto(`/product/${grinder.id}`);
    await d.page.getByTestId('write-review').click();
    const form = d.page.getByTestId('review-form');
    await form.getByTestId('composer').waitFor();
    await form.getByTestId('linked-product').getByText('Hand Grinder').waitFor();
    expect(await form.getByTestId('composer-product').count()).toBe(0);
    await form.getByTestId('composer-text').fill('Even grind, slow but calm');
    expect(await form.getByTestId('post-review').isDisabled()).toBe(true);
    await form.getByRole('button', { name: '4.5 stars' }).click();
    await shot(d.page, 'lv12-composer-product-page');
    await form.getByTestId('post-review').click();
    await d.page.getByTestId('review-card').filter({ hasText: 'Even grind, slow but calm' }).getByRole('img', { name: '4.5 of 5 stars' }).waitFor();
    expect(kettle.id).toBeTruthy();
    await d.context.close();
  });

  test('after sign-in the frame is drawn at once: never a full-screen "Loading..." (1280 px)', async () => {
    const eda = await register(world, 'Eda Signin');
    const v = await contextFor(world);
    // every element that ever stands alone in #root, recorded as the page draws
    await v.context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { rootChildren: string[] }).rootChildren = seen;
      new MutationObserver(() => {
        const root = document.getElementById('root');
        for (const child of Array.from(root?.children ?? [])) seen.push(`${child.className}|${child.getAttribute('role') ?? ''}|${(child.textContent ?? '').slice(0, 40)}`);
      }).observe(document, { childList: true, subtree: true });
    });
    await v.page.goto('/');
    await v.page.getByRole('button', { name: 'Log in' }).first().click();
    await v.page.locator('input[name="email"]').fill(eda.email);
    await v.page.locator('input[type="password"]').fill(eda.password);
    await v.page.locator('form').getByRole('button', { name: 'Log In' }).click();
    await v.page.waitForURL('**/home');
    await v.page.getByTestId('composer').waitFor();
    const children = await v.page.evaluate(() => (window as unknown as { rootChildren: string[] }).rootChildren);
    expect(children.filter((c) => c.includes('spinner-wrap') || c.includes('Loading...'))).toEqual([]);
    await v.context.close();
  });
});

/** The TOTP code (RFC 6238, SHA-1, 6 digits, 30 s) of a base32 key, as an authenticator app shows it. */
function totp(base32: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of base32) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
