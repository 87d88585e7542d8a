import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { runSteps } from '../http/pipeline';
import { cardTags, firstScreen, withCard } from './card-tags';
import { cardSource, createLinkCardPages } from './link-card-pages';
import { robotsTxt } from './robots';

const SKELETON = '<!--first-screen--><div class="card skeleton"></div><!--/first-screen-->';
const INDEX = `<!doctype html><html><head><title>SquadReviews</title><meta name="description" content="The app." /></head><body><div id="root">${SKELETON}</div></body></html>`;

describe('link card pages', () => {
  let root: string;
  let service: Server;
  let gateway: Server;
  const served: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cards-'));
    writeFileSync(join(root, 'index.html'), INDEX);
    // a stand-in for the services' public card reads: one public product, everything else 404
    service = createServer((req, res) => {
      served.push(`${req.url} ${req.headers.authorization ?? 'no token'}`);
      if (req.url === '/api/cards/catalogue') {
        const data = { type: 'website', title: 'Products', description: '2 products.', image: '/api/media/m9', image_alt: 'Çaydanlık', rating: null };
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data }));
      }
      if (req.url === '/api/cards/users/private_one') return void res.writeHead(403).end('{"success":false}');
      if (req.url === '/api/cards/users/slow_one') return void res.writeHead(503).end('{"success":false}');
      if (req.url !== '/api/cards/products/kahve') return void res.writeHead(404).end('{"success":false}');
      const data = { type: 'product', title: 'Kahve "Makinesi" <b>', description: 'Espresso & foam.', image: '/api/media/m1', image_alt: 'A machine', rating: 4.5 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data }));
    });
    await new Promise<void>((done) => service.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const steps = [robotsTxt, createLinkCardPages({ urls: { reviews: url, social: url }, webDir: root, appOrigin: 'https://squad.example' })];
    gateway = createServer((req, res) => runSteps(steps, req, res, () => res.writeHead(204).end()));
  });
  afterAll(async () => {
    await new Promise((done) => service.close(done));
    rmSync(root, { recursive: true, force: true });
  });

  it('names the card of product, review, profile and catalogue pages only', () => {
    expect(cardSource('/product/kahve')).toEqual({ service: 'reviews', cardPath: '/api/cards/products/kahve' });
    expect(cardSource('/review/r1')).toEqual({ service: 'reviews', cardPath: '/api/cards/reviews/r1' });
    expect(cardSource('/user/ay%C5%9Fe')).toEqual({ service: 'social', cardPath: '/api/cards/users/ay%C5%9Fe' });
    expect(cardSource('/product/a%2F..%2F..%2Fusers')?.cardPath).toBe('/api/cards/products/a%2F..%2F..%2Fusers');
    expect(cardSource('/products')).toEqual({ service: 'reviews', cardPath: '/api/cards/catalogue' });
    expect(cardSource('/products?category=Books')).toBeUndefined(); // its first card is another
    expect(cardSource('/product/kahve?ref=chat')).toEqual({ service: 'reviews', cardPath: '/api/cards/products/kahve' });
    expect(cardSource('/home')).toBeUndefined();
    expect(cardSource('/product/x/edit')).toBeUndefined();
  });

  it("answers a public product's page with the app and its card tags, escaped, asking with no token", async () => {
    const res = await request(gateway).get('/product/kahve').set('Authorization', 'Bearer member-token');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<div id="root"><!--first-screen-->');
    expect(res.text).toContain('<title>Kahve &quot;Makinesi&quot; &lt;b&gt; · SquadReviews</title>');
    expect(res.text).not.toContain('<title>SquadReviews</title>');
    expect(res.text).not.toContain('The app.');
    expect(res.text).toContain('<meta property="og:title" content="Kahve &quot;Makinesi&quot; &lt;b&gt;" />');
    expect(res.text).toContain('<meta name="description" content="Espresso &amp; foam." />');
    expect(res.text).toContain('<meta property="og:image" content="https://squad.example/api/media/m1" />');
    expect(res.text).toContain('<meta property="og:url" content="https://squad.example/product/kahve" />');
    expect(res.text).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(res.text).toContain('<meta name="twitter:data1" content="4.5/5" />');
    expect(served.at(-1)).toBe('/api/cards/products/kahve no token');
  });

  it("draws a product's picture in place of the skeleton cards, at the app's size and place, with its alt text escaped", async () => {
    const res = await request(gateway).get('/product/kahve');
    const screen = /<!--first-screen-->([\s\S]*)<!--\/first-screen-->/.exec(res.text)?.[1] ?? '';
    expect(screen).not.toContain('card skeleton"></div>');
    expect(screen).toContain('<div class="page" data-first-screen><div class="small">&nbsp;</div><section class="card product-detail"');
    expect(screen).toContain('<img class="hero-img" src="/api/media/m1" alt="A machine" fetchpriority="high" />');
  });

  it("draws the catalogue's head as empty boxes and its first card's picture, for the bare /products only", async () => {
    const res = await request(gateway).get('/products');
    const screen = /<!--first-screen-->([\s\S]*)<!--\/first-screen-->/.exec(res.text)?.[1] ?? '';
    expect(screen).toContain('<div class="page" data-first-screen><div class="page-head">');
    expect(screen).toContain('<input disabled /><select disabled></select>');
    expect(screen).toContain('<article class="card product-card"><div class="product-img"><img src="/api/media/m9" alt="Çaydanlık" fetchpriority="high" /></div>');
    expect(res.text).toContain('<meta property="og:type" content="website" />');
    expect(res.text).toContain('<title>Products · SquadReviews</title>');
    expect(served.at(-1)).toBe('/api/cards/catalogue no token');
    expect((await request(gateway).get('/products?search=kahve')).status).toBe(204);
  });

  it("draws a profile's head: its name, handle and bio escaped, the picture or an empty circle, boxes for the rest", () => {
    const profile = { type: 'profile' as const, title: 'x', description: '', image: null, image_alt: null, rating: null };
    const person = { name: 'Ayşe <Y>', username: 'ayse', bio: 'Kahve & "klavye".' };
    const screen = firstScreen({ ...profile, person })!;
    expect(screen).toContain('<div class="page" data-first-screen><section class="card"><div class="profile-banner"></div><div class="profile-head"><span class="avatar sk" style="width: 104px; height: 104px"></span>');
    expect(screen).toContain('<h1 style="margin-bottom: 0">Ayşe &lt;Y&gt;</h1><div class="muted">@ayse</div>');
    expect(screen).toContain('<p class="pre-wrap">Kahve &amp; &quot;klavye&quot;.</p>');
    const pictured = firstScreen({ ...profile, person: { ...person, bio: null }, image: '/api/media/a1', image_alt: 'Ayşe' })!;
    expect(pictured).toContain('<img class="avatar" src="/api/media/a1" alt="Ayşe" width="104" height="104"');
    expect(pictured).not.toContain('pre-wrap');
  });

  it('keeps the skeleton where there is no picture to draw: another kind of page, a product without one', () => {
    const card = { type: 'product' as const, title: 'Çay <i>', description: '', image: null, image_alt: null, rating: null };
    expect(firstScreen(card)).toBeUndefined();
    expect(firstScreen({ ...card, type: 'profile', image: '/api/media/a1' })).toBeUndefined(); // a card without its person
    expect(firstScreen({ ...card, type: 'article', image: '/api/media/a1' })).toBeUndefined();
    expect(firstScreen({ ...card, image: '//evil.example/x.png' })).toBeUndefined();
    expect(firstScreen({ ...card, image: '/api/media/m2' })).toContain('alt="Çay &lt;i&gt;"');
    expect(withCard(INDEX, '', undefined)).toContain(SKELETON);
  });

  it('compresses the page by the Accept-Encoding, as the file it is built from is', async () => {
    const big = INDEX.replace('</head>', `<style>${'.x { color: red; }\n'.repeat(200)}</style></head>`);
    writeFileSync(join(root, 'index.html'), big);
    try {
      const zipped = await request(gateway).get('/product/kahve').set('Accept-Encoding', 'gzip');
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toBe('Accept-Encoding');
      expect(Number(zipped.headers['content-length'])).toBeLessThan(big.length / 4);
      expect(zipped.text).toContain('<title>Kahve &quot;Makinesi&quot; &lt;b&gt; · SquadReviews</title>');
      const plain = await request(gateway).get('/product/kahve').set('Accept-Encoding', 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(plain.text));
    } finally {
      writeFileSync(join(root, 'index.html'), INDEX);
    }
  });

  it('passes a page without a card (private, a service failing) on to the plain app page', async () => {
    expect((await request(gateway).get('/user/private_one')).status).toBe(204);
    expect((await request(gateway).get('/user/slow_one')).status).toBe(204);
    expect((await request(gateway).get('/home')).status).toBe(204);
  });

  it('answers the page of what is not there (unknown, deleted, hidden) 404 with the app, whose 404 screen says so (issue 43 §3)', async () => {
    for (const path of ['/product/nope', '/review/gone', '/user/nobody_here']) {
      const res = await request(gateway).get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<div id="root">');
      expect(res.text).not.toContain('og:title');
    }
  });

  it('answers /robots.txt as text, not the app', async () => {
    const res = await request(gateway).get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toContain('Disallow: /api/');
  });

  it('names no outside picture and shows names stored with control or direction characters without them (issue 45 §3, §6)', () => {
    const card = {
      type: 'profile' as const,
      title: 'Ay\u202Ese\u0000 \r\nevil',
      description: 'Bio\u2067 text',
      image: 'https://evil.example/track.png',
      image_alt: null,
      rating: null,
      person: { name: 'Ay\u202Ese', username: 'ayse', bio: 'line one\nline\u202E two' },
    };
    const tags = cardTags(card, 'https://squad.example', '/user/ayse');
    expect(tags).toContain('<title>Ayse    evil · SquadReviews</title>');
    expect(tags).toContain('<meta property="og:description" content="Bio text" />');
    // the tags are joined by line breaks of their own; nothing else of that kind is left
    // eslint-disable-next-line no-control-regex
    expect(tags).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202a-\u202e\u2066-\u2069]/u);
    expect(tags).not.toContain('evil.example');
    expect(tags).toContain('<meta name="twitter:card" content="summary" />');
    const screen = firstScreen(card) ?? '';
    expect(screen).toContain('<h1 style="margin-bottom: 0">Ayse</h1>');
    expect(screen).toContain('<p class="pre-wrap">line one\nline two</p>');
    expect(screen).not.toContain('evil.example');
  });
});
