// Issue 19 (go beyond): the installable app. Manifest, service worker, and the shell offline with its banner.
import { describeInBrowser, contextFor, register, shot } from './harness';

jest.setTimeout(120_000);

describeInBrowser('installable app (issue 19)', (world) => {

  test('the gateway serves the manifest and the service worker with their content types', async () => {
    const manifest = await fetch(`${world.stack.url}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const body = (await manifest.json()) as { name: string; start_url: string; display: string; icons: Array<{ src: string; sizes: string; type: string; purpose?: string }> };
    expect(body).toMatchObject({ name: 'SquadReviews', start_url: '/home', display: 'standalone' });
    expect(body.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(body.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of body.icons) {
      const res = await fetch(`${world.stack.url}${icon.src}`);
      expect([icon.src, res.status, res.headers.get('content-type')]).toEqual([icon.src, 200, icon.type]);
    }
    const sw = await fetch(`${world.stack.url}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });

  test('the service worker registers, and offline a reload still shows the shell with the offline banner', async () => {
    const member = await register(world, 'Oya Offline');
    const { context, page } = await contextFor(world, member);
    await page.goto('/home');
    await page.getByTestId('side-menu').waitFor();
    expect(await page.locator('link[rel=manifest]').getAttribute('href')).toBe('/manifest.webmanifest');
    // the worker is active and controls the page once it has precached the shell
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${world.stack.url}/`);
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 15_000 });
    expect(await page.getByTestId('offline-banner').count()).toBe(0);

    await context.setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    await page.reload();
    await page.getByTestId('side-menu').waitFor();
    await page.getByTestId('offline-banner').waitFor();
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await shot(page, 'p01-offline-shell');

    await context.setOffline(false);
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
    await context.close();
  });

  test('a phone sees the offline banner above the shell', async () => {
    const member = await register(world, 'Pelin Phone');
    const { context, page } = await contextFor(world, member, { viewport: { width: 390, height: 844 } });
    await page.goto('/home');
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 15_000 });
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('mobile-menu-toggle').waitFor();
    await page.getByTestId('offline-banner').waitFor();
    await shot(page, 'p02-offline-phone');
    await context.close();
  });
});
