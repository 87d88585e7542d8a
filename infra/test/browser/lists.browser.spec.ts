// Issue 21 §4: lists. A member adds a product to "Want to try" from a product card and finds it on the list page.
import { apiCall, contextFor, describeInBrowser, register, shot } from './harness';

jest.setTimeout(120_000);

describeInBrowser('lists in the browser (issue 21 §4)', (world) => {
  test('a product added to "Want to try" from its card shows on the list page, reached from the profile', async () => {
    const ayse = await register(world, 'Ayse Lists');
    const maker = await register(world, 'Maker Lists');
    const name = `Moka Pot ${Date.now() % 100000}`;
    await apiCall(world, 'POST', '/products', maker.token, { name, category: 'Home', price: 20 });

    const { context, page } = await contextFor(world, ayse);
    await page.goto(`/products?search=${encodeURIComponent(name)}`);
    const card = page.getByTestId('product-card').filter({ hasText: name });
    await card.getByTestId('add-to-list').click();
    const menu = card.getByTestId('add-to-list-menu');
    // "Want to try" (the default language: Turkish) leads the member's lists
    await menu.getByRole('menuitemcheckbox').first().waitFor();
    expect(await menu.getByRole('menuitemcheckbox').first().textContent()).toBe('Want to try');
    const wantToTry = menu.getByRole('menuitemcheckbox', { name: 'Want to try' });
    expect(await wantToTry.getAttribute('aria-checked')).toBe('false');
    await shot(page, 'li01-add-to-list-menu');
    await wantToTry.click();
    await page.getByTestId('toast').filter({ hasText: 'Want to try' }).waitFor();
    // issue 31 §5: the menu stays open and checks the list that now holds it; a second click takes it out
    await menu.locator('[aria-checked="true"]').filter({ hasText: 'Want to try' }).waitFor();
    await shot(page, 'li01b-add-to-list-checked');
    await menu.locator('[aria-checked="true"]:not([disabled])').click();
    await page.getByTestId('toast').filter({ hasText: 'Removed from' }).waitFor();
    await menu.locator('[aria-checked="false"]:not([disabled])').filter({ hasText: 'Want to try' }).waitFor();
    expect((await apiCall<Array<{ item_count: number }>>(world, 'GET', '/lists', ayse.token))[0].item_count).toBe(0);
    await menu.locator('[aria-checked="false"]:not([disabled])').click();
    await menu.locator('[aria-checked="true"]').waitFor();

    const lists = await apiCall<Array<{ id: string; is_default: boolean; item_count: number }>>(world, 'GET', '/lists', ayse.token);
    expect(lists[0]).toMatchObject({ is_default: true, item_count: 1 });

    await page.goto('/profile?tab=lists');
    await page.getByTestId('list-link').filter({ hasText: 'Want to try' }).click();
    await page.getByTestId('list-page').waitFor();
    await page.waitForURL(`**/lists/${lists[0].id}`);
    expect(await page.getByTestId('list-title').textContent()).toBe('Want to try');
    const item = page.getByTestId('list-item');
    await item.getByText(name).waitFor();
    expect(await item.count()).toBe(1);
    // the owner cannot delete "Want to try", only edit it
    expect(await page.getByTestId('delete-list').count()).toBe(0);
    await page.getByTestId('edit-list').waitFor();
    await shot(page, 'li02-want-to-try-list');

    // the product page has the same menu
    await page.getByTestId('list-item').getByText(name).click();
    await page.getByTestId('product-detail').waitFor();
    await page.getByTestId('add-to-list').click();
    // opened elsewhere, the menu still shows the list holding the product as checked
    await page.getByTestId('add-to-list-menu').locator('[aria-checked="true"]').filter({ hasText: 'Want to try' }).waitFor();
    await shot(page, 'li03-product-page-add-to-list');

    // another member does not see it: "Want to try" starts private
    const other = await contextFor(world, maker);
    await other.page.goto(`/lists/${lists[0].id}`);
    await other.page.getByTestId('list-missing').waitFor();
    await other.context.close();
    await context.close();
  });

  test('a member creates a public list on the profile; another member sees it there, a private one stays hidden', async () => {
    const owner = await register(world, 'Owner Lists');
    const reader = await register(world, 'Reader Lists');
    const { context, page } = await contextFor(world, owner);
    for (const [name, visibility] of [['Kamp eşyaları', 'public'], ['Hediye fikirleri', 'private']]) {
      await page.goto('/profile?tab=lists');
      await page.getByTestId('new-list').click();
      await page.getByTestId('list-name').fill(name);
      await page.getByTestId('list-visibility').selectOption(visibility);
      await page.getByTestId('list-submit').click();
      await page.getByTestId('list-link').filter({ hasText: name }).waitFor();
    }
    await shot(page, 'li04-own-profile-lists');

    const other = await contextFor(world, reader);
    await other.page.goto(`/user/${owner.username}`);
    await other.page.getByRole('button', { name: 'Lists' }).click();
    await other.page.getByTestId('list-link').filter({ hasText: 'Kamp eşyaları' }).waitFor();
    expect(await other.page.getByTestId('list-link').allTextContents()).toEqual([expect.stringContaining('Kamp eşyaları')]);
    await shot(other.page, 'li05-other-profile-lists');
    await other.context.close();
    await context.close();
  });
});
