import { apiCall, contextFor, describeInBrowser, register, shot } from './harness';

/**
 * Issue 31 §1 from the web: the member's tab stays open while an admin promotes, demotes and
 * suspends them. The Moderation entry appears and goes without signing in again; the suspension
 * signs the tab out on its next request.
 */
describeInBrowser('roles and cut-offs take effect at once (browser)', (world) => {
  test('promote, demote and suspend while the tab is open', async () => {
    const admin = await register(world, 'Ada Admin'); // the first account is the admin
    const member = await register(world, 'Mert Member');
    await world.stack.settle();
    const { context, page } = await contextFor(world, member);
    await page.goto('/home');
    await page.getByTestId('avatar-menu').click();
    await page.locator('.menu-dropdown').waitFor();
    expect(await page.getByTestId('nav-moderation').count()).toBe(0);

    // promoted: the open menu grows the Moderation entry, and the screen works with the same token
    await apiCall(world, 'PUT', `/moderation/roles/${member.id}`, admin.token, { role: 'moderator', reason: 'helps out' });
    await page.getByTestId('nav-moderation').click();
    await page.waitForURL('**/moderation');
    await page.getByTestId('moderation-page').waitFor();
    await shot(page, 'ro01-promoted');

    // demoted: the screen closes at once
    await apiCall(world, 'PUT', `/moderation/roles/${member.id}`, admin.token, { role: 'member', reason: 'stepped down' });
    await page.getByText('This page is for moderators only.').waitFor();
    expect(await page.getByTestId('moderation-page').count()).toBe(0);
    await page.getByTestId('avatar-menu').click();
    await page.locator('.menu-dropdown').waitFor();
    expect(await page.getByTestId('nav-moderation').count()).toBe(0);

    // suspended: the next request signs the tab out
    await apiCall(world, 'POST', `/moderation/suspensions/${member.id}`, admin.token, { hours: 1, reason: 'Spam' });
    await world.stack.settle();
    await page.locator('.menu-dropdown').getByText('Settings').click();
    await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await shot(page, 'ro02-suspended');
    await context.close();
  });
});
