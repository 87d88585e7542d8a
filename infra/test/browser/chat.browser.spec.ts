// Issue 22 §4: chat images, read receipts and squad chat @mentions, between two members' browsers.
import { apiCall, contextFor, describeInBrowser, register, shot, solidPng } from './harness';

jest.setTimeout(120_000);

describeInBrowser('chat images, "Seen" and mentions in the browser (issue 22 §4)', (world) => {
  test('Ayse sends Burak an image: he sees it, she sees "Seen"; her @mention in squad chat reaches him as a notification that opens the chat', async () => {
    const ayse = await register(world, 'Ayse Chat');
    const burak = await register(world, 'Burak Chat');
    const dm = (await apiCall<{ id: string }>(world, 'POST', '/messages/conversations', ayse.token, { memberIds: [burak.id] })).id;
    const squad = await apiCall<{ id: string }>(world, 'POST', '/squads', ayse.token, { name: 'Kahve Lab', category: 'Food' });
    const asked = await apiCall<{ id: string }>(world, 'POST', `/squads/${squad.id}/request-join`, burak.token, {});
    await world.stack.settle();
    await apiCall(world, 'POST', `/squads/${squad.id}/join-requests/${asked.id}`, ayse.token, { action: 'approve' });
    await world.stack.settle();
    const squadChat = (await apiCall<{ id: string }>(world, 'GET', `/messages/squads/${squad.id}/conversation`, ayse.token)).id;

    // Ayse attaches an image with the labelled button's file picker and sends it with a caption
    const a = await contextFor(world, ayse);
    // issue 31 §4: text and images go one way, over the socket; the pane makes no message POST
    const posts: string[] = [];
    a.page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/messages\/conversations\/[^/]+\/messages$/.test(r.url())) posts.push(r.url());
    });
    await a.page.goto(`/messages/${dm}`);
    await a.page.getByTestId('chat-pane').waitFor();
    expect((await a.page.getByTestId('attach-button').textContent())?.trim()).toBe('Attach image');
    const chooser = a.page.waitForEvent('filechooser');
    await a.page.getByTestId('attach-button').focus();
    await a.page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'kutu.png', mimeType: 'image/png', buffer: solidPng([30, 120, 200], 64) });
    await a.page.getByTestId('pending-images').locator('img').waitFor();
    await a.page.getByLabel('Image description (optional)').fill('Mavi kutu');
    await a.page.getByTestId('message-input').fill('Yeni kutu geldi');
    await a.page.getByTestId('message-input').press('Enter');
    await a.page.getByTestId('message-image').waitFor();
    expect(await a.page.getByTestId('message-seen').count()).toBe(0);
    expect(posts).toEqual([]);

    // Burak opens the conversation: the image and its alt text, full size behind its link
    const b = await contextFor(world, burak);
    await b.page.goto(`/messages/${dm}`);
    const image = b.page.getByTestId('message-image');
    await image.waitFor();
    expect(await image.getAttribute('alt')).toBe('Mavi kutu');
    expect(await image.getAttribute('src')).toMatch(/^\/api\/media\/[A-Za-z0-9_-]+$/);
    expect(await b.page.locator('a:has([data-testid="message-image"])').getAttribute('href')).toBe(await image.getAttribute('src'));
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    await shot(b.page, 'ch01-image-received');

    // ...and Ayse's open tab learns he read it, live
    await a.page.getByTestId('message-seen').waitFor();
    expect(await a.page.getByTestId('message-seen').textContent()).toBe('Seen');
    await shot(a.page, 'ch02-seen');

    // In the squad chat her @mention is a link to his profile, on her screen and on his
    // issue 31 §4: typing @ and part of his handle suggests the squad's members; Escape closes,
    // the arrow keys move and Enter picks, all from the keyboard
    await a.page.goto(`/messages/${squadChat}`);
    const box = a.page.getByTestId('message-input');
    await box.click();
    await a.page.keyboard.type('@xyz');
    expect(await a.page.getByTestId('mention-suggestions').count()).toBe(0);
    await box.fill('');
    await a.page.keyboard.type(`@${burak.username.slice(0, 3)}`);
    const suggestions = a.page.getByTestId('mention-suggestions');
    await suggestions.waitFor();
    expect(await suggestions.getByRole('option').allTextContents()).toEqual([`Burak Chat @${burak.username}`]);
    expect(await box.getAttribute('aria-activedescendant')).toBe(await suggestions.getByRole('option').first().getAttribute('id'));
    await shot(a.page, 'ch02b-mention-suggestions');
    await a.page.keyboard.press('Escape');
    await suggestions.waitFor({ state: 'detached' });
    await a.page.keyboard.type('a'); // still this @: the list stays shut
    expect(await suggestions.count()).toBe(0);
    await box.fill('');
    await a.page.keyboard.type(`@${burak.username.slice(0, 3)}`);
    await suggestions.waitFor();
    await a.page.keyboard.press('ArrowDown');
    await a.page.keyboard.press('Enter');
    expect(await box.inputValue()).toBe(`@${burak.username} `);
    await a.page.keyboard.type('bu çekirdeği denedin mi?');
    await a.page.keyboard.press('Enter');
    const mine = a.page.getByTestId('mention');
    await mine.waitFor();
    expect(await mine.getAttribute('href')).toBe(`/user/${burak.username}`);
    // a squad chat shows no receipts
    expect(await a.page.getByTestId('message-seen').count()).toBe(0);

    await b.page.goto('/');
    await b.page.getByTestId('bell-badge').waitFor();
    await b.page.getByTestId('bell').click();
    const item = b.page.getByTestId('notif-item').filter({ hasText: 'mentioned you in Kahve Lab chat' });
    await item.waitFor();
    await shot(b.page, 'ch03-mention-notification');
    await item.click();
    await b.page.waitForURL(`**/messages/${squadChat}`);
    const theirs = b.page.getByTestId('mention');
    await theirs.waitFor();
    expect(await theirs.textContent()).toBe(`@${burak.username}`);
    await shot(b.page, 'ch04-mention-in-squad-chat');

    await a.context.close();
    await b.context.close();
  });
});
