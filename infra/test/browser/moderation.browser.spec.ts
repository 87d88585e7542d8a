import { apiCall, contextFor, describeInBrowser, register, shot } from './harness';

/**
 * Issue 22 §3 from the web: a member reports a review from its menu; the admin (the first account)
 * opens Moderation from the avatar menu and hides it with a reason; the review leaves the
 * reporter's feed and its author finds the notification under the bell.
 */
describeInBrowser('moderation (browser)', (world) => {
  test('a reported review is hidden by the admin from the Moderation screen; the author is told', async () => {
    const admin = await register(world, 'Ada Admin');
    const author = await register(world, 'Ali Author');
    const reporter = await register(world, 'Rana Reporter');
    await apiCall(world, 'POST', `/follows/users/${author.id}`, reporter.token);
    const text = `Buy my course at spam dot example ${Date.now() % 100000}`;
    const kept = `A fine kettle, boils fast ${Date.now() % 100000}`;
    await apiCall(world, 'POST', '/reviews', author.token, { content: kept });
    await apiCall(world, 'POST', '/reviews', author.token, { content: text });
    await world.stack.settle();

    // the reporter reports it from the card's menu
    const rep = await contextFor(world, reporter);
    await rep.page.goto('/home');
    const card = rep.page.getByTestId('review-card').filter({ hasText: text });
    await card.waitFor();
    await card.getByRole('button', { name: 'More actions' }).click();
    await card.getByRole('button', { name: 'Report review' }).click();
    // the dialog asks why: nothing goes before a category is chosen
    const dialog = rep.page.getByTestId('report-dialog');
    const send = dialog.getByRole('button', { name: 'Send report' });
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel('Spam or advertising').check();
    await dialog.getByLabel('A note for the moderators (optional)').fill('Links to a shop in every line');
    await shot(rep.page, 'md00-report-dialog');
    await send.click();
    await rep.page.getByText('Thanks, the review was reported.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // the admin opens Moderation from the avatar menu and sees the report with the review
    const adm = await contextFor(world, admin, { viewport: { width: 1400, height: 900 } });
    await adm.page.goto('/home');
    await adm.page.getByTestId('avatar-menu').click();
    await adm.page.getByTestId('nav-moderation').click();
    await adm.page.waitForURL('**/moderation');
    const report = adm.page.getByTestId('moderation-report').filter({ hasText: text });
    await report.waitFor();
    await report.getByText('Rana Reporter', { exact: false }).first().waitFor();
    // the moderator reads the category in their language and the note as written
    await report.getByText('Spam or advertising: Links to a shop in every line', { exact: false }).waitFor();
    await report.getByTestId('moderation-reason').fill('Spam links');
    await shot(adm.page, 'md01-moderation-1400');
    await adm.page.setViewportSize({ width: 390, height: 844 });
    await report.scrollIntoViewIfNeeded();
    await shot(adm.page, 'md02-moderation-390');
    await report.getByTestId('moderation-hide').click();
    await report.waitFor({ state: 'detached' });
    await adm.context.close();
    await world.stack.settle();

    // gone from the reporter's feed
    await rep.page.reload();
    await rep.page.getByTestId('review-card').filter({ hasText: kept }).waitFor();
    expect(await rep.page.getByTestId('review-card').filter({ hasText: text }).count()).toBe(0);
    await rep.context.close();

    // the author finds the notification under the bell
    const auth = await contextFor(world, author);
    await auth.page.goto('/home');
    await auth.page.getByTestId('bell').click();
    await auth.page.getByTestId('notif-item').filter({ hasText: 'A moderator hid your review: Spam links' }).waitFor();
    await shot(auth.page, 'md03-author-told');
    await auth.context.close();
  });
});
