// Issue 19 (go beyond): two languages. The spec's texts by default, English from Settings, kept on the server.
import { describeInBrowser, apiCall, contextFor, register, shot } from './harness';

jest.setTimeout(120_000);

describeInBrowser('two languages (issue 19)', (world) => {

  test('English from Settings: the frame and feed switch, a reload and another browser keep it', async () => {
    const member = await register(world, 'Elif English');
    const { context, page } = await contextFor(world, member);
    await page.goto('/home');
    await page.getByRole('tab', { name: 'Tüm Paylaşımlar' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('tr');

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Appearance', exact: true }).click();
    const appearance = page.getByTestId('settings-appearance');
    await appearance.getByLabel('Dil').selectOption('en');
    await appearance.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings updated successfully!').waitFor();
    await appearance.getByLabel('Language').waitFor();
    expect((await apiCall<{ language: string }>(world, 'GET', '/users/settings', member.token)).language).toBe('en');

    await page.getByTestId('side-menu').getByRole('link', { name: 'Home' }).click();
    await page.getByRole('tab', { name: 'All Posts' }).waitFor();
    const nav = await page.getByTestId('side-menu').innerText();
    for (const label of ['Home', 'Explore', 'Notifications', 'My Reviews', 'My Squads', 'Profile', 'Settings']) expect(nav).toContain(label);
    await shot(page, 'i01-home-english');

    await page.reload();
    await page.getByRole('tab', { name: 'All Posts' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.goto('/profile');
    await page.getByTestId('profile-counters').getByText('Followers').waitFor();
    await shot(page, 'i02-profile-english');
    await context.close();

    // a browser that never saw the switch: the language comes with the sign-in
    const other = await contextFor(world, member, { viewport: { width: 390, height: 844 } });
    await other.page.goto('/home');
    await other.page.getByRole('tab', { name: 'All Posts' }).waitFor();
    await other.page.getByTestId('mobile-menu-toggle').click();
    await other.page.getByTestId('mobile-menu').getByRole('link', { name: 'My Squads' }).waitFor();
    await shot(other.page, 'i03-phone-english');

    // and back to the default: the spec's texts exactly
    await other.page.goto('/settings');
    await other.page.getByRole('button', { name: 'Appearance', exact: true }).click();
    await other.page.getByTestId('settings-appearance').getByLabel('Language').selectOption('tr');
    await other.page.getByTestId('settings-appearance').getByRole('button', { name: 'Save' }).click();
    await other.page.getByTestId('settings-appearance').getByLabel('Dil').waitFor();
    await other.page.goto('/home');
    await other.page.getByRole('tab', { name: 'Tüm Paylaşımlar' }).waitFor();
    await other.context.close();
  });

  test("the new-message modal's own texts follow the language (issue 31 §6)", async () => {
    const member = await register(world, 'Deniz Dil');
    const { context, page } = await contextFor(world, member);
    const nobody = async () => {
      await page.goto('/messages');
      await page.getByRole('button', { name: 'New Message' }).first().click();
      const modal = page.getByTestId('new-message-modal');
      await modal.getByRole('textbox').fill('zzqx-nobody');
      return modal;
    };
    let modal = await nobody();
    await modal.getByText('Kullanıcı bulunamadı').waitFor();
    expect(await modal.getByRole('textbox').getAttribute('placeholder')).toBe('Kullanıcı ara...');
    // the member's language is kept on the server (the first test switches it from Settings)
    await apiCall(world, 'PUT', '/users/settings', member.token, { language: 'en' });
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    modal = await nobody();
    await modal.getByText('No users found').waitFor();
    expect(await modal.getByRole('button', { name: 'Start Conversation' }).isDisabled()).toBe(true);
    await context.close();
  });
});
