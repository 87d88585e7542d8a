// Issue 19 §8: a squad admin changes a member's role and removes a member from the squad page.
import { apiCall, contextFor, describeInBrowser, register, shot } from './harness';

jest.setTimeout(120_000);

interface SquadMember {
  id: string;
  role: string;
}

/** Asks again until `read` gives `want` (the UI's request is in flight), or fails with the last answer. */
async function eventually<T>(read: () => Promise<T>, want: T): Promise<void> {
  let got = await read();
  for (let i = 0; i < 50 && got !== want; i++) {
    await new Promise((r) => setTimeout(r, 100));
    got = await read();
  }
  expect(got).toBe(want);
}

describeInBrowser('squad administration in the browser (issue 19)', (world) => {
  test('an admin makes a member a moderator, then removes another member', async () => {
    const admin = await register(world, 'Squad Admin');
    const [mod, leaver] = [await register(world, 'Future Moderator'), await register(world, 'Leaving Member')];
    const squad = await apiCall<{ id: string }>(world, 'POST', '/squads', admin.token, { name: `Roles ${Date.now()}`, category: 'Technology' });
    for (const member of [mod, leaver]) {
      const request = await apiCall<{ id: string }>(world, 'POST', `/squads/${squad.id}/request-join`, member.token, {});
      await apiCall(world, 'POST', `/squads/${squad.id}/join-requests/${request.id}`, admin.token, { action: 'approve' });
    }
    const members = async () => (await apiCall<{ members: SquadMember[] }>(world, 'GET', `/squads/${squad.id}`, admin.token)).members;

    const { context, page } = await contextFor(world, admin);
    await page.goto(`/squads/${squad.id}`);
    await page.getByTestId('squad-members').waitFor();

    await page.getByLabel('Role of Future Moderator').selectOption('moderator');
    await eventually(async () => (await members()).find((m) => m.id === mod.id)?.role, 'moderator');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove Leaving Member' }).click();
    await eventually(async () => (await members()).some((m) => m.id === leaver.id), false);
    await page.getByText('Leaving Member').waitFor({ state: 'detached' });
    await shot(page, 'sq01-squad-admin-roles');

    // The member's own view has no controls: roles are shown, never editable.
    const other = await contextFor(world, mod);
    await other.page.goto(`/squads/${squad.id}`);
    await other.page.getByTestId('squad-members').waitFor();
    expect(await other.page.getByTestId('member-role').count()).toBe(0);
    expect(await other.page.getByTestId('member-remove').count()).toBe(0);
    await other.context.close();
    await context.close();
  });
});
