import { apiCall, composerCleared, contextFor, describeInBrowser, register, shot } from './harness';

/** Issue 21 §1–3 from the web: half stars, spoilers and edit history. */
describeInBrowser('reviews with half stars, spoilers and history (browser)', (world) => {
  test('posts a half-star spoiler review, reveals it by keyboard, edits it and opens its history', async () => {
    const author = await register(world, 'Hale Halfstar');
    const { context, page } = await contextFor(world, author);
    await page.goto('/home');

    // composer: text, 3.5 stars from the rating tool, the spoiler box
    const composer = page.getByTestId('composer');
    await page.getByTestId('composer-text').fill('The twist in chapter 9: the narrator is the cat.');
    await composer.getByRole('button', { name: 'Rating', exact: true }).click();
    await composer.getByRole('button', { name: '3.5 stars' }).click();
    await composer.getByRole('group', { name: '3.5 of 5 stars' }).waitFor();
    await page.getByTestId('composer-spoilers').check();
    await shot(page, 'rd01-composer-half-star-spoiler');
    await composer.getByRole('button', { name: 'Post Review' }).click();
    await composerCleared(page);

    // the card: half stars, text hidden behind the button
    const hidden = page.getByTestId('review-card').filter({ has: page.getByTestId('spoiler-reveal') }).first();
    await hidden.waitFor();
    // by its id from here on: revealing removes the button the card was found by
    const card = page.locator(`#${await hidden.getAttribute('id')}`);
    await card.getByRole('img', { name: '3.5 of 5 stars' }).waitFor();
    expect(await card.getByText('the narrator is the cat').count()).toBe(0);
    await shot(page, 'rd02-card-spoiler-hidden');

    // revealed with the keyboard
    await card.getByRole('button', { name: 'Spoiler — show' }).focus();
    await page.keyboard.press('Enter');
    await card.getByText('The twist in chapter 9: the narrator is the cat.').waitFor();
    await shot(page, 'rd03-card-spoiler-revealed');

    // edit: new text and 4.5 stars
    await card.getByRole('button', { name: 'More actions' }).click();
    await card.getByTestId('review-edit-button').click();
    const edit = page.getByTestId('review-edit');
    await edit.getByLabel('Review text').fill('Reread it: the cat was foreshadowed from page one.');
    await edit.getByRole('button', { name: '4.5 stars' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    const updated = page.getByTestId('review-card').filter({ hasText: 'Reread it: the cat was foreshadowed from page one.' });
    await updated.getByRole('img', { name: '4.5 of 5 stars' }).waitFor();
    const label = updated.getByTestId('edited-label').filter({ hasText: 'edited' });
    await label.waitFor();

    // history: the first version with its 3.5 stars, its text behind the spoiler guard as the card's (issue 43 §2)
    await label.click();
    const dialog = page.getByRole('dialog', { name: 'Edit history' });
    await dialog.waitFor();
    const versions = dialog.getByTestId('review-version');
    await versions.first().waitFor();
    expect(await versions.count()).toBe(1);
    expect(await dialog.getByText('the narrator is the cat').count()).toBe(0);
    await shot(page, 'rd04-edit-history-guarded');
    await versions.first().getByTestId('version-spoiler-reveal').click();
    await versions.first().getByText('The twist in chapter 9: the narrator is the cat.').waitFor();
    await versions.first().getByRole('img', { name: '3.5 of 5 stars' }).waitFor();
    await shot(page, 'rd04-edit-history');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });

  test('a product page shows a half-star average', async () => {
    const owner = await register(world, 'Pela Product');
    const rater = await register(world, 'Rana Rater');
    const product = await apiCall<{ id: string }>(world, 'POST', '/products', owner.token, {
      name: `Half Lamp ${Date.now() % 100000}`,
      brand: 'Lux',
      price: 15,
      category: 'Home',
      description: 'A lamp.',
      features: [],
    });
    await apiCall(world, 'POST', '/reviews', owner.token, { product_id: product.id, rating: 4, content: 'Good light.' });
    await apiCall(world, 'POST', '/reviews', rater.token, { product_id: product.id, rating: 5, content: 'Great light.' });
    await world.stack.settle();
    const { context, page } = await contextFor(world, rater);
    await page.goto(`/product/${product.id}`);
    await page.getByRole('img', { name: '4.5 of 5 stars' }).first().waitFor();
    await shot(page, 'rd05-product-half-average');
    await context.close();
  });
});
