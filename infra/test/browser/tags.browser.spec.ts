import { composerCleared, contextFor, describeInBrowser, register, shot, solidPng } from './harness';

/** Issue 21 §6–7 from the web: a half-star spoiler review with a #tag and a described image, its description edited; the tag page and following it. */
describeInBrowser('hashtags and alt text (browser)', (world) => {
  test('posts a half-star spoiler review with a #tag and a described image; another member follows the tag from its page and sees it at home', async () => {
    const author = await register(world, 'Tuba Tagger');
    const { context, page } = await contextFor(world, author);
    await page.goto('/home');

    // composer: text with a tag, 4.5 stars, spoilers, one image with its description
    const composer = page.getByTestId('composer');
    const stamp = Date.now() % 100000;
    const text = `Sonunda bulduk: #Kahve ${stamp} dükkanı`;
    await page.getByTestId('composer-text').fill(text);
    await composer.getByRole('button', { name: 'Rating', exact: true }).click();
    await composer.getByRole('button', { name: '4.5 stars' }).click();
    await page.getByTestId('composer-spoilers').check();
    await page.getByTestId('composer-file').setInputFiles({ name: 'cup.png', mimeType: 'image/png', buffer: solidPng([180, 83, 9]) });
    await page.waitForFunction(() => !document.querySelector('.composer .preview-state'));
    await composer.getByLabel('Image 1 description').fill('Köpüklü bir fincan kahve');
    await shot(page, 'tg01-composer-tag-alt');
    await composer.getByRole('button', { name: 'Post Review' }).click();
    await composerCleared(page);

    // the card: hidden until revealed, then the tag is a link and the image carries its description
    const hidden = page.getByTestId('review-card').filter({ has: page.getByTestId('spoiler-reveal') }).first();
    await hidden.waitFor();
    const card = page.locator(`#${await hidden.getAttribute('id')}`);
    await card.getByRole('img', { name: '4.5 of 5 stars' }).waitFor();
    await card.getByRole('button', { name: 'Spoiler — show' }).click();
    await card.getByRole('img', { name: 'Köpüklü bir fincan kahve' }).waitFor();
    const tagLink = card.getByRole('link', { name: '#Kahve' });
    expect(await tagLink.getAttribute('href')).toBe('/tags/Kahve');
    await shot(page, 'tg02-card-tag-alt');

    // the author changes the description in the edit form; the image then carries the new one
    await card.getByRole('button', { name: 'More actions' }).click();
    await card.getByTestId('review-edit-button').click();
    const edit = page.getByTestId('review-edit');
    const alt = edit.getByLabel('Image 1 description');
    expect(await alt.inputValue()).toBe('Köpüklü bir fincan kahve');
    await alt.fill('Köpüklü bir fincan Türk kahvesi');
    await shot(page, 'tg02b-edit-alt');
    await edit.getByRole('button', { name: 'Save' }).click();
    await card.getByRole('img', { name: 'Köpüklü bir fincan Türk kahvesi' }).waitFor();
    expect(await card.getByRole('img', { name: 'Köpüklü bir fincan kahve', exact: true }).count()).toBe(0);

    // the tag link opens the tag page with the review on it
    await tagLink.click();
    await page.waitForURL('**/tags/Kahve');
    const tagPage = page.getByTestId('tag-page');
    await tagPage.getByRole('heading', { name: 'Kahve' }).waitFor();
    await tagPage.getByTestId('review-card').first().waitFor();

    // the top bar's search finds it by its words, folded (dükkanı = DUKKANI), without spelling out the spoiler
    const box = page.getByTestId('search-box').getByRole('combobox');
    await box.fill(`DUKKANI ${stamp}`);
    const found = page.getByRole('listbox').getByRole('group', { name: 'Reviews' }).getByRole('option');
    await found.filter({ hasText: 'Review with spoilers' }).waitFor();
    expect(await found.filter({ hasText: 'Sonunda bulduk' }).count()).toBe(0);
    await shot(page, 'tg02c-search-spoiler');
    await box.press('Escape');
    await context.close();

    // a member who follows nobody follows the tag from its page, by keyboard, and finds the review at home
    const reader = await register(world, 'Okan Okur');
    const second = await contextFor(world, reader);
    await second.page.goto('/tags/kahve');
    const follow = second.page.getByTestId('tag-follow');
    // The button reads "Follow tag" while the tag's state loads, disabled: Enter counts once it is enabled.
    await follow.filter({ hasText: 'Follow tag' }).and(second.page.locator('button:enabled')).waitFor();
    await follow.focus();
    await second.page.keyboard.press('Enter');
    await follow.filter({ hasText: 'Unfollow tag' }).waitFor();
    expect(await follow.getAttribute('aria-pressed')).toBe('true');
    await shot(second.page, 'tg03-tag-page-following');
    await second.page.goto('/home');
    const fromTag = second.page.getByTestId('review-card').first();
    await fromTag.getByTestId('spoiler-reveal').waitFor();
    await fromTag.getByRole('link', { name: author.name }).waitFor();
    await second.context.close();
  });
});
