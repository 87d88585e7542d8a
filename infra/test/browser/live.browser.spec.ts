import { apiCall, contextFor, describeInBrowser, register, shot } from './harness';

jest.setTimeout(180_000);

const PHONE = { width: 390, height: 844 };

/**
 * Issue 43 §4 and §5, two members side by side: what one does reaches the other's open page without a
 * reload (a join request, its approval, a squad role, a report in the moderation queue), and the
 * small truths of the screens (labels, landings, menus, the search box, the account's safeguards).
 */
describeInBrowser('live pages and the small truths (issue 43 §4, §5)', (world) => {
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
});
