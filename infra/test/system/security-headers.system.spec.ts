import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Issue 11 §7: every reply of the gateway (the SPA, its assets, proxied API replies and the
 * gateway's own errors) carries the security headers, and nothing in the web app needs the
 * CSP loosened (no inline script, no raw HTML).
 */

const ROOT = resolve(__dirname, '../../..');

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe('security headers on every reply of the gateway', () => {
  let stack: EmbeddedStack;
  let webDir: string;
  let token: string;

  beforeAll(async () => {
    // A stand-in build, so the test does not depend on `npm run build:web` having run.
    webDir = mkdtempSync(join(tmpdir(), 'web-'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');
    writeFileSync(join(webDir, 'assets', 'app.js'), 'export {};');
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', WEB_DIR: webDir } });
    const reg = await request(stack.url).post('/api/auth/register').send({ email: 'headers@example.com', name: 'Head Ers', password: 'lamp-desk-battery-42' });
    token = reg.body.data.token;
  });

  afterAll(async () => {
    await stack.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const replies: Array<[string, (url: string) => request.Test, number]> = [
    ['the SPA at /', (url) => request(url).get('/'), 200],
    ['a client-side route', (url) => request(url).get('/profile/someone'), 200],
    ['an asset', (url) => request(url).get('/assets/app.js'), 200],
    ['a proxied API reply', (url) => request(url).get('/api/auth/me').set('Authorization', `Bearer ${token}`), 200],
    ['a proxied API error', (url) => request(url).get('/api/reviews/nope').set('Authorization', `Bearer ${token}`), 404],
    ["the gateway's 401", (url) => request(url).get('/api/feed'), 401],
    ["the gateway's 404", (url) => request(url).get('/api/nothing-here').set('Authorization', `Bearer ${token}`), 404],
  ];

  it.each(replies)('%s', async (_name, send, status) => {
    const res = await send(stack.url);
    expect(res.status).toBe(status);
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]); // no inline script, no eval
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers JSON errors as JSON (a browser never sniffs them into HTML)', async () => {
    const res = await request(stack.url).get('/api/feed');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('the web app needs no loosened CSP', () => {
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  }

  it('renders user content as text: no dangerouslySetInnerHTML, innerHTML writes or eval in web/src', () => {
    const offenders = sources(join(ROOT, 'web/src'))
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ file: file.slice(ROOT.length + 1), line: i + 1, text: line.trim() }))
          // Clearing the page (`innerHTML = ''`) writes no content; anything else would.
          .filter((l) => /dangerouslySetInnerHTML|\binnerHTML\s*=(?!\s*'')|outerHTML\s*=|insertAdjacentHTML|\beval\(|new Function\(/.test(l.text)),
      );
    expect(offenders).toEqual([]);
  });

  it('has no inline script in the page shell', () => {
    const html = readFileSync(join(ROOT, 'web/index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i); // no inline event handlers
  });
});
