import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startEmbeddedStack, type EmbeddedStack } from '../../launcher/src/embedded-stack';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const WEB_DIR = resolve(__dirname, '../../../web/dist');
export const SHOTS = resolve(__dirname, '../../../test-output/screenshots');

/**
 * Whether the browser suite can run. Locally a missing engine or unbuilt SPA skips with a message;
 * under CI=true it throws so the run fails instead of passing quietly.
 */
export function browserAvailable(): boolean {
  const missing = [
    !existsSync(CHROMIUM) && `chromium not found at ${CHROMIUM} (apt-get install -y chromium)`,
    !existsSync(join(WEB_DIR, 'index.html')) && `web not built at ${WEB_DIR} (npx vite build --config web/vite.config.ts)`,
  ].filter(Boolean);
  if (missing.length === 0) return true;
  if (process.env.CI === 'true') throw new Error(`browser tests cannot run: ${missing.join('; ')}`);
  process.stdout.write(`\nbrowser tests skipped: ${missing.join('; ')}\n`);
  return false;
}

export interface Member {
  id: string;
  username: string;
  name: string;
  email: string;
  password: string;
  token: string;
}

export interface World {
  stack: EmbeddedStack;
  browser: Browser;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  mkdirSync(SHOTS, { recursive: true });
  const stack = await startEmbeddedStack({
    port: 0,
    dataDir: ':memory:',
    seed: false,
    env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', WEB_DIR },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    stack,
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      await stack.close();
    },
  };
}

/**
 * A browser suite on a stack and Chromium of its own, started before its tests and closed after.
 * `world` is filled in by `beforeAll`, so tests read it as usual. Skipped where Chromium or the
 * built SPA is missing (a failure under CI=true, see `browserAvailable`).
 */
export function describeInBrowser(title: string, body: (world: World) => void): void {
  (browserAvailable() ? describe : describe.skip)(title, () => {
    const world = {} as World;
    beforeAll(async () => {
      Object.assign(world, await startWorld());
    });
    afterAll(async () => {
      await world.close?.();
    });
    body(world);
  });
}

let seq = 0;

/** Calls the API as a member (or anonymously) and unwraps the envelope. */
export async function apiCall<T>(world: World, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${world.stack.url}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as { data?: T; message?: unknown };
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(json)}`);
  return json.data as T;
}

/** Registers a member through the API (the UI sign-up has its own test). */
export async function register(world: World, name: string): Promise<Member> {
  seq += 1;
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}.${seq}@example.test`;
  const password = 'lamp-desk-battery-42';
  const r = await apiCall<{ token: string; user: { id: string; username: string } }>(world, 'POST', '/auth/register', undefined, { name, email, password });
  return { id: r.user.id, username: r.user.username, name, email, password, token: r.token };
}

/** A browser context already signed in as the member (token and user in localStorage, part 1 §3). */
export async function contextFor(
  world: World,
  member?: Member,
  options: { dark?: boolean; viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  // the browser's language (navigator.languages) is the visitor's first language: English unless a test says
  const context = await world.browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 860 }, baseURL: world.stack.url, locale: options.locale ?? 'en-US' });
  const storage: Record<string, string> = { darkMode: String(options.dark ?? false) };
  if (member) {
    const me = await apiCall<Record<string, unknown>>(world, 'GET', '/auth/me', member.token);
    storage.token = member.token;
    storage.user = JSON.stringify(me);
  }
  await context.addInitScript((entries: Record<string, string>) => {
    // only the first load of each origin: later reloads keep what the app wrote
    if (sessionStorage.getItem('__seeded')) return;
    sessionStorage.setItem('__seeded', '1');
    for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
  }, storage);
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  page.on('pageerror', (e) => process.stdout.write(`[pageerror] ${e.message}\n`));
  return { context, page };
}

/** Waits for the composer to empty itself, which it does once the server has taken the post. */
export async function composerCleared(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('[data-testid="composer-text"]') as HTMLTextAreaElement | null)?.value === '');
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** A real 16x16 PNG of one colour, built with zlib (no image library needed). */
export function solidPng(rgb: [number, number, number] = [220, 38, 38], size = 16): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, body: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), body]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(typed));
    return Buffer.concat([len, typed, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
