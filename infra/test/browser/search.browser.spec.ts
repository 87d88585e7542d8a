import AxeBuilder from '@axe-core/playwright';
import { composerCleared, contextFor, describeInBrowser, register, shot } from './harness';

/** Issue 21 §5 from the web: a review posted from the composer is found through the top bar, then on the results page. */
describeInBrowser('one search (browser)', (world) => {
  test('finds a new review through the top-bar listbox by keyboard, then lists it on the results page', async () => {
    const author = await register(world, 'Selin Searcher');
    const { context, page } = await contextFor(world, author);
    await page.goto('/home');

    await page.getByTestId('composer-text').fill('Şahane bir Işıldak: kampta gece boyu yandı.');
    await page.getByTestId('composer').getByRole('button', { name: 'Post Review' }).click();
    await composerCleared(page);
    await world.stack.settle();

    // typed without Turkish letters and in capitals: ş=s, I=ı
    const box = page.getByTestId('search-box').getByRole('combobox');
    await box.fill('SAHANE ISILDAK');
    const listbox = page.getByRole('listbox');
    const reviews = listbox.getByRole('group', { name: 'Reviews' });
    await reviews.getByRole('option').filter({ hasText: 'Şahane bir Işıldak' }).waitFor();
    await shot(page, 'se01-top-bar-groups');
    const axe = await new AxeBuilder({ page }).include('[data-testid="search-box"]').withTags(['wcag2a', 'wcag2aa', 'best-practice']).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    // the arrow key highlights the review; Escape closes, Enter without a highlight opens the results page
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe('search-option-0');
    await box.press('ArrowUp');
    await box.press('Enter');
    await page.waitForURL(/\/search\?q=SAHANE(\+|%20)ISILDAK/);
    const group = page.getByTestId('search-group-reviews');
    await group.getByRole('link', { name: /Şahane bir Işıldak/ }).waitFor();
    await page.getByTestId('search-group-products').getByText('Nothing here.').waitFor();
    await shot(page, 'se02-results-page');
    await context.close();
  });
});
