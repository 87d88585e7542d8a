// Issue 43 §1: one language at a time, the member's. Every route, signed in, as a visitor and at a phone's
// width, in English and in Turkish, shows no interface text of the other language; a visitor's first
// language is the browser's; at sign-in the account's language and theme come first; at sign-up the
// account takes the language the newcomer is using.
import type { Page } from 'playwright-core';
import { en } from '../../../web/src/shared/i18n/en';
import { tr } from '../../../web/src/shared/i18n/tr';
import { LANDING_TEXTS } from '../../../web/src/features/auth/landing-texts';
import { apiCall, contextFor, describeInBrowser, register, shot, type Member } from './harness';
import { signedInRoutes, type WalkedRoute } from './app-routes';

jest.setTimeout(600_000);

type Language = 'en' | 'tr';

const texts = (o: object): string[] => Object.values(o).flatMap((v) => (typeof v === 'string' ? [v] : texts(v as object)));
/** Lowercased words of three letters or more (a Turkish dotted capital İ is an i). */
const words = (text: string): string[] =>
  text
    .replace(/\{\{[^}]*\}\}|<\/?\w+>/g, ' ')
    .replace(/İ/g, 'i')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length >= 3);

// what the language files do not hold but screens write: month and day names, relative times
const EN_EXTRA = 'january february march april june july august september october november december jan feb apr jun jul aug sep oct nov dec monday tuesday wednesday thursday friday saturday sunday ago just yesterday today';
const TR_EXTRA = 'ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık oca şub nis haz tem ağu eyl eki kas ara pazartesi salı çarşamba perşembe cuma cumartesi pazar önce dakika saat hafta bugün dün şimdi';
const SOURCES: Record<Language, string[]> = {
  en: [...texts(en), ...texts(LANDING_TEXTS.en), EN_EXTRA],
  tr: [...texts(tr), ...texts(LANDING_TEXTS.tr), TR_EXTRA],
};
const vocabulary = (lng: Language) => new Set(SOURCES[lng].flatMap(words));
const EN_WORDS = vocabulary('en');
const TR_WORDS = vocabulary('tr');
/** Words only one language writes: seeing one of them on a screen in the other language is a mixed screen. */
const ONLY: Record<Language, Set<string>> = {
  en: new Set([...EN_WORDS].filter((w) => !TR_WORDS.has(w))),
  tr: new Set([...TR_WORDS].filter((w) => !EN_WORDS.has(w))),
};
const other = (lng: Language): Language => (lng === 'en' ? 'tr' : 'en');

/** Everything a screen says: its text, the texts people read in attributes, and its title. */
async function screenText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attrs = Array.from(document.querySelectorAll('[placeholder], [aria-label], [title], img[alt]')).flatMap((el) =>
      ['placeholder', 'aria-label', 'title', 'alt'].map((a) => el.getAttribute(a) ?? ''),
    );
    // a language's own name (the language switch) is written in that language on purpose
    const own = Array.from(document.querySelectorAll('[lang]:not(html)')).map((el) => el.textContent ?? '');
    let text = [document.title, document.body.innerText, ...attrs].join('\n');
    for (const t of own) text = text.split(t).join(' ');
    return text;
  });
}

describeInBrowser('one language at a time, the member’s (issue 43 §1)', (world) => {
  let ayse: Member;
  let deniz: Member;
  const ids: Record<string, string> = {};
  /** Words of what the test itself wrote (names, products, reviews, messages): content, not interface. */
  let content = new Set<string>();

  beforeAll(async () => {
    ayse = await register(world, 'Zeynep Quill');
    deniz = await register(world, 'Kerem Vale');
    await apiCall(world, 'POST', `/follows/users/${deniz.id}`, ayse.token);
    await apiCall(world, 'POST', `/follows/users/${ayse.id}`, deniz.token);
    const product = await apiCall<{ id: string; slug: string }>(world, 'POST', '/products', deniz.token, {
      name: 'Zixo Lumo',
      brand: 'Qarvo',
      price: 35,
      category: 'Home',
      description: 'Zixo zuno.',
      features: ['Lumo zuno'],
    });
    ids.product = product.slug;
    ids.review = (await apiCall<{ id: string }>(world, 'POST', '/reviews', deniz.token, { product_id: product.id, rating: 4, title: 'Zixo Lumo', content: 'Zuno qarvo lumo. #zixo' })).id;
    await apiCall(world, 'POST', `/reviews/${ids.review}/comments`, ayse.token, { content: 'Qarvo!' });
    ids.squad = (await apiCall<{ id: string }>(world, 'POST', '/squads', ayse.token, { name: 'Zixo Club', description: 'Lumo zuno.', category: 'General' })).id;
    ids.conversation = (await apiCall<{ id: string }>(world, 'POST', '/messages/conversations', ayse.token, { memberIds: [deniz.id] })).id;
    await apiCall(world, 'POST', `/messages/conversations/${ids.conversation}/messages`, deniz.token, { content: 'Qarvo zuno!' });
    ids.list = (await apiCall<{ id: string }>(world, 'POST', '/lists', ayse.token, { name: 'Zuno things', visibility: 'public' })).id;
    await world.stack.settle();
    content = new Set(words([ayse.name, ayse.username, deniz.name, deniz.username, 'Zixo Lumo Qarvo zuno Zuno things Club'].join(' ')));
  });

  /** The other language's words on the page now, as `route: word` lines. */
  async function strays(page: Page, lng: Language, route: string): Promise<string[]> {
    const seen = new Set(words(await screenText(page)).filter((w) => ONLY[other(lng)].has(w) && !content.has(w)));
    return [...seen].map((w) => `${lng} ${route}: ${w}`);
  }

  /**
   * Gives the member's account `lng` (what the server writes to them follows it), as Settings would, and waits
   * until auth has it from the settings' event: the app takes the account's language from auth.
   */
  const accountIn = async (member: Member, lng: Language) => {
    await apiCall(world, 'PUT', '/users/settings', member.token, { language: lng });
    await world.stack.settle();
  };

  const signedIn = signedInRoutes({ ids, word: 'zixo', other: () => deniz.username });

  async function walk(page: Page, lng: Language, routes: WalkedRoute[], extra?: (name: string) => Promise<void>): Promise<string[]> {
    const found: string[] = [];
    for (const [name, path, ready] of routes) {
      await page.goto(path());
      await page.locator(ready).first().waitFor({ state: 'attached' });
      // late parts of the screen (the right column, counts, the bell's list) have come
      await page.waitForLoadState('networkidle');
      found.push(...(await strays(page, lng, name)));
      if (extra) {
        await extra(name);
        found.push(...(await strays(page, lng, `${name} (opened)`)));
      }
    }
    return found;
  }

  for (const lng of ['en', 'tr'] as const) {
    test(`signed in, every route is wholly ${lng === 'en' ? 'English' : 'Turkish'}, menus and dropdowns too`, async () => {
      await accountIn(ayse, lng);
      const { context, page } = await contextFor(world, ayse, { locale: lng === 'tr' ? 'tr-TR' : 'en-US' });
      const found = await walk(page, lng, signedIn, async (name) => {
        if (name === 'home') {
          await page.getByTestId('bell').click();
          await page.getByTestId('avatar-menu').click();
        }
        if (name === 'explore') await page.getByTestId('search-box').click();
      });
      await page.goto('/home');
      await page.locator('[data-testid="review-card"]').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lng);
      await shot(page, `i43-home-${lng}`);
      await context.close();
      expect(found).toEqual([]);
    });

    test(`at a phone's width (390 px), the side menu and screens are wholly ${lng === 'en' ? 'English' : 'Turkish'}`, async () => {
      await accountIn(ayse, lng);
      const { context, page } = await contextFor(world, ayse, { locale: lng === 'tr' ? 'tr-TR' : 'en-US', viewport: { width: 390, height: 844 } });
      const phone = signedIn.filter(([name]) => ['home', 'a product', 'a profile', 'a squad', 'a conversation', 'settings'].includes(name));
      const found = await walk(page, lng, phone, async (name) => {
        if (name === 'home') await page.getByTestId('mobile-menu-toggle').click();
      });
      await page.goto('/home');
      await page.getByTestId('mobile-menu-toggle').click();
      await shot(page, `i43-phone-menu-${lng}`);
      await context.close();
      expect(found).toEqual([]);
    });

    test(`a visitor whose browser speaks ${lng} sees the public pages and the dialogs wholly in it`, async () => {
      const { context, page } = await contextFor(world, undefined, { locale: lng === 'tr' ? 'tr-TR' : 'en-US' });
      const visitor: WalkedRoute[] = [
        ['landing', () => '/', 'h1'],
        ['login', () => '/login', '[role="dialog"]'],
        ['reset password', () => '/reset-password?token=x', 'h1'],
        ['a profile as a visitor', () => `/user/${deniz.username}`, 'h1'],
        ['not found', () => '/zixo-qarvo', 'h1'],
      ];
      const found = await walk(page, lng, visitor, async (name) => {
        if (name === 'login') await page.locator('[role="dialog"] .muted.center button.link').click(); // to the sign-up form
        if (name === 'landing') await page.evaluate(() => document.getElementById('learn-more')?.scrollIntoView());
      });
      await page.goto('/');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lng);
      await page.locator('header button.btn-primary').click();
      await page.locator('[data-testid="auth-form"] input[name="name"]').waitFor();
      found.push(...(await strays(page, lng, 'sign-up dialog')));
      await shot(page, `i43-signup-${lng}`);
      await context.close();
      expect(found).toEqual([]);
    });
  }

  test("a newcomer who picks Türkçe on the landing page gets a Turkish account; the landing page keeps the choice", async () => {
    const { context, page } = await contextFor(world, undefined, { locale: 'en-US' });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Find Squads for Everything You Love' }).waitFor();
    await page.getByTestId('landing-language').getByRole('button', { name: 'Türkçe' }).click();
    await page.getByRole('heading', { name: 'Sevdiğin Her Şey İçin Squad Bul' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sevdiğin Her Şey İçin Squad Bul' }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'i43-landing-phone-tr');
    await page.getByRole('button', { name: 'Kaydol' }).click();
    const form = page.getByTestId('auth-form');
    await form.locator('input[name="name"]').fill('Yeni Gelen');
    await form.locator('input[name="email"]').fill(`yeni.${Date.now()}@example.test`);
    await form.locator('input[name="password"]').fill('lamp-desk-battery-42');
    await form.getByRole('button', { name: 'Hesap Oluştur' }).click();
    await page.getByRole('tab', { name: 'Tüm Paylaşımlar' }).waitFor();
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await world.stack.settle();
    expect((await apiCall<{ language: string }>(world, 'GET', '/users/settings', token ?? undefined)).language).toBe('tr');
    expect(await strays(page, 'tr', 'first screen after sign-up')).toEqual([]);
    await context.close();
  });

  test("signing in on an English browser draws the first screen in the account's Turkish and dark theme", async () => {
    const member = await register(world, 'Selin Dark');
    await apiCall(world, 'PUT', '/users/settings', member.token, { language: 'tr', theme: 'dark' });
    await world.stack.settle();
    const { context, page } = await contextFor(world, undefined, { locale: 'en-US' });
    // records what the feed's first tab said and whether the page was dark when the tab first showed
    await page.addInitScript(() => {
      const w = window as unknown as { firstTab?: { text: string; dark: boolean } };
      new MutationObserver(() => {
        const tab = document.querySelector('[role="tab"]');
        if (tab && !w.firstTab) w.firstTab = { text: tab.textContent ?? '', dark: document.documentElement.classList.contains('dark') };
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto('/login');
    const form = page.getByTestId('auth-form');
    await form.locator('input[name="email"]').fill(member.email);
    await form.locator('input[name="password"]').fill(member.password);
    await form.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('tab', { name: 'Tüm Paylaşımlar' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { firstTab?: unknown }).firstTab)).toEqual({ text: 'Tüm Paylaşımlar', dark: true });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('tr');
    await shot(page, 'i43-signed-in-turkish-dark');
    await context.close();
  });

  test('every Turkish text has its English, and the word lists can tell the languages apart', () => {
    // the check above is only as good as its lists: each language has words the other never writes
    for (const w of ['posts', 'share', 'following', 'settings', 'notifications']) expect(ONLY.en.has(w)).toBe(true);
    for (const w of ['paylaşımlar', 'takip', 'ayarlar', 'bildirimler', 'önce']) expect(ONLY.tr.has(w)).toBe(true);
  });
});
