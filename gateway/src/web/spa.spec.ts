import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { runSteps } from '../http/pipeline';
import { preferredEncoding } from './precompressed';
import { createSpaHandlers } from './spa';

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['identity', undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['x-gzip', 'gzip'],
  ])('%s -> %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('the SPA handlers', () => {
  const script = `console.log(${JSON.stringify('squad '.repeat(400))});`;
  const html = `<!doctype html><title>SquadReviews</title>${'<p>app</p>'.repeat(200)}`;
  let root: string;
  let server: Server;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'spa-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'assets/app-1.js'), script);
    writeFileSync(join(root, 'assets/app-1.js.br'), brotliCompressSync(script));
    writeFileSync(join(root, 'assets/app-1.js.gz'), gzipSync(script));
    writeFileSync(join(root, 'assets/plain-1.js'), script);
    writeFileSync(join(root, 'index.html'), html);
    writeFileSync(join(root, 'index.html.br'), brotliCompressSync(html));
    writeFileSync(join(root, '.secret.br'), 'no');
    writeFileSync(join(root, 'landing.html'), '<!doctype html><h1>Find Squads</h1>');
    const steps = createSpaHandlers(root);
    server = createServer((req, res) => runSteps(steps, req, res, () => res.writeHead(404).end()));
    return new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
    rmSync(root, { recursive: true, force: true });
  });

  /** The reply's bytes as sent (supertest would decompress them). */
  const raw = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((done, fail) => {
      const { port } = server.address() as AddressInfo;
      get({ host: '127.0.0.1', port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', fail);
    });

  it('sends the brotli copy of an asset to a client that takes it, typed as the original', async () => {
    const res = await raw('/assets/app-1.js', { 'Accept-Encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('sends gzip where brotli is not taken, and the file itself where nothing is', async () => {
    const gz = await raw('/assets/app-1.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const plain = await request(server).get('/assets/app-1.js').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.text).toBe(script);
  });

  it('answers a range from the file itself, never from a compressed copy', async () => {
    const res = await request(server).get('/assets/app-1.js').set('Accept-Encoding', 'br').set('Range', 'bytes=0-10');
    expect(res.status).toBe(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe(script.slice(0, 11));
  });

  it('sends the file itself when no copy was built, and a conditional GET of a copy gets 304', async () => {
    const plain = await request(server).get('/assets/plain-1.js').set('Accept-Encoding', 'br');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(script);
    const first = await request(server).get('/assets/app-1.js').set('Accept-Encoding', 'br');
    const again = await request(server).get('/assets/app-1.js').set('Accept-Encoding', 'br').set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
  });

  it('answers an app route with the compressed index.html, not cached', async () => {
    const res = await raw('/user/ayse', { 'Accept-Encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.body).toString()).toBe(html);
  });

  it('answers / and /login with the prerendered landing page, other routes with the empty app page', async () => {
    for (const path of ['/', '/login', '/LOGIN/']) expect((await request(server).get(path)).text).toBe('<!doctype html><h1>Find Squads</h1>');
    expect((await request(server).get('/home')).text).toBe(html);
  });

  it("answers an address that is none of the app's 404 with the app's page, which says so (issue 43 §3)", async () => {
    writeFileSync(join(root, 'app-paths.json'), JSON.stringify(['/', '/login', '/home', '/user/:username', '/product/:id']));
    try {
      for (const path of ['/home', '/HOME/', '/user/ayse', '/product/kahve?ref=x', '/', '/login']) expect([path, (await request(server).get(path)).status]).toEqual([path, 200]);
      for (const path of ['/nope', '/user', '/user/ayse/extra', '/product/']) {
        const res = await raw(path, { 'Accept-Encoding': 'br' });
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(brotliDecompressSync(res.body).toString()).toBe(html);
      }
    } finally {
      rmSync(join(root, 'app-paths.json'));
    }
    // an older build without the list: every address is the app's
    expect((await request(server).get('/nope')).status).toBe(200);
  });

  it('never serves a dot-file or a path outside the build', async () => {
    // both fall through to the app's page
    const dot = await raw('/.secret', { 'Accept-Encoding': 'br' });
    expect(brotliDecompressSync(dot.body).toString()).toBe(html);
    const out = await raw('/..%2f..%2fetc%2fpasswd', { 'Accept-Encoding': 'br' });
    expect(brotliDecompressSync(out.body).toString()).toBe(html);
  });
});
