#!/usr/bin/env node
// `npm run audit:web [-- --url http://host:port] [-- --runs 3]`: Lighthouse (mobile, its default
// simulated throttling) in Debian's Chromium on the landing page, /home as the demo member, /products,
// a product page and a profile; prints the four category scores, LCP, TBT and the JavaScript sent, and
// whether issue 30's targets are met. Without --url it starts the embedded stack (built by
// `npm run build:server`) on a free port over a fresh temp data folder seeded with the demo.
// --details prints each page's LCP element with its phases, the opportunities and the long tasks;
// --out <dir> writes each page's Lighthouse report and trace (JSON); --only <text> audits the pages whose name has it.
import { loadavg } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { api, ROOT, startStack } from './audit-stack.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DEMO = { email: 'ayse@demo.local', password: 'squad-demo-2026' };
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** Issue 30's targets. */
const TARGETS = { score: 95, landingLcpMs: 1500, tbtMs: 200, landingJsKb: 120, homeJsKb: 200 };

const { values: args } = parseArgs({
  options: { url: { type: 'string' }, runs: { type: 'string', default: '1' }, details: { type: 'boolean', default: false }, out: { type: 'string' }, only: { type: 'string' } },
});
const runs = Math.max(1, Number(args.runs) || 1);
const startLoad = loadavg();

/** The demo member's session as the app keeps it (localStorage `token` and `user`), and the pages to audit. */
async function pagesOf(base) {
  const { token } = await api(base, '/auth/login', undefined, DEMO);
  const user = await api(base, '/auth/me', token);
  const [product] = await api(base, '/products?limit=1', token);
  const people = await api(base, `/users/search?limit=5`, token).catch(() => []);
  const other = people.find?.((p) => p.username !== user.username);
  const session = { token, user: JSON.stringify(user) };
  return [
    { name: 'landing /', path: '/', session: undefined, landing: true },
    { name: '/home (member)', path: '/home', session, home: true },
    { name: '/products', path: '/products', session },
    { name: '/product/:slug', path: `/product/${product.slug ?? product.id}`, session },
    { name: '/user/:name', path: `/user/${other?.username ?? user.username}`, session },
  ];
}

async function audit(port, url, session) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null });
  const page = await browser.newPage();
  try {
    // Lighthouse clears the origin's storage before it loads the page, so the session is written at
    // the start of every document instead, before the app's scripts read it.
    if (session) await page.evaluateOnNewDocument((s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v)), session);
    const result = await lighthouse(url, { logLevel: 'error', output: 'json', onlyCategories: CATEGORIES, formFactor: 'mobile' }, undefined, page);
    const lhr = result.lhr;
    const scripts = lhr.audits['network-requests']?.details?.items?.filter((r) => r.resourceType === 'Script') ?? [];
    return {
      error: lhr.runtimeError?.code,
      scores: CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100)),
      lcp: lhr.audits['largest-contentful-paint'].numericValue,
      tbt: lhr.audits['total-blocking-time'].numericValue,
      jsKb: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024,
      lcpElement: ((n) => n && `${n.snippet} ${JSON.stringify(n.nodeLabel ?? '').slice(0, 60)}`)(lhr.audits['lcp-breakdown-insight']?.details?.items?.find((i) => i.type === 'node')),
      lcpPhases: lhr.audits['lcp-breakdown-insight']?.details?.items?.find((i) => i.type === 'table')?.items?.map((p) => `${p.label} ${Math.round(p.duration)} ms`),
      metrics: ['first-contentful-paint', 'speed-index', 'interactive'].map((id) => `${id} ${lhr.audits[id]?.displayValue}`).join(', '),
      opportunities: Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && (a.details?.overallSavingsMs ?? a.metricSavings?.LCP ?? 0) > 0)
        .map((a) => `${a.id} (${Math.round(a.details?.overallSavingsMs ?? a.metricSavings?.LCP ?? 0)} ms)`),
      longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).slice(0, 5).map((t) => `${t.url?.split('/').pop() || 'page'} ${Math.round(t.duration)} ms @${Math.round(t.startTime)}`),
      lhr,
      trace: result.artifacts?.Trace ?? result.artifacts?.traces?.defaultPass,
      failing: Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual')
        .map((a) => a.id),
    };
  } finally {
    await page.close().catch(() => undefined);
    browser.disconnect();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const stack = args.url ? { url: args.url.replace(/\/$/, ''), close: async () => undefined } : await startStack();
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const rows = [];
  try {
    for (const page of await pagesOf(stack.url)) {
      if (args.only && !page.name.includes(args.only)) continue;
      const results = [];
      for (let i = 0; i < runs; i++) results.push(await audit(chrome.port, `${stack.url}${page.path}`, page.session));
      // the run with the median performance score stands for the page
      const perf = median(results.map((r) => r.scores[0]));
      const chosen = results.find((r) => r.scores[0] === perf);
      if (args.out) {
        mkdirSync(args.out, { recursive: true });
        const file = page.name.replace(/[^a-z]+/gi, '-').replace(/^-|-$/g, '');
        writeFileSync(join(args.out, `${file}.json`), JSON.stringify(chosen.lhr));
        if (chosen.trace) writeFileSync(join(args.out, `${file}.trace.json`), JSON.stringify(chosen.trace));
      }
      rows.push({ ...page, ...chosen });
    }
  } finally {
    await chrome.kill();
    await stack.close();
  }
  const misses = [];
  const lines = [
    `Lighthouse ${runs > 1 ? `(median of ${runs} runs) ` : ''}mobile, default throttling, on ${args.url ?? 'a fresh embedded stack'} (load average at the start: ${startLoad.map((l) => l.toFixed(2)).join(' ')})`,
    '',
    '| page | performance | accessibility | best practices | SEO | LCP | TBT | JS sent |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    if (r.error) misses.push(`${r.name}: Lighthouse could not measure it (${r.error})`);
    lines.push(`| ${r.name} | ${r.scores.join(' | ')} | ${(r.lcp / 1000).toFixed(1)} s | ${Math.round(r.tbt)} ms | ${r.jsKb.toFixed(0)} KB |`);
    r.scores.forEach((s, i) => s < TARGETS.score && misses.push(`${r.name}: ${CATEGORIES[i]} ${s} < ${TARGETS.score}`));
    if (r.tbt > TARGETS.tbtMs) misses.push(`${r.name}: TBT ${Math.round(r.tbt)} ms > ${TARGETS.tbtMs} ms`);
    if (r.landing && r.lcp > TARGETS.landingLcpMs) misses.push(`${r.name}: LCP ${(r.lcp / 1000).toFixed(2)} s > ${TARGETS.landingLcpMs / 1000} s`);
    if (r.landing && r.jsKb > TARGETS.landingJsKb) misses.push(`${r.name}: JS ${r.jsKb.toFixed(0)} KB > ${TARGETS.landingJsKb} KB`);
    if (r.home && r.jsKb > TARGETS.homeJsKb) misses.push(`${r.name}: JS ${r.jsKb.toFixed(0)} KB > ${TARGETS.homeJsKb} KB`);
  }
  lines.push('', `load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (args.details) {
    for (const r of rows) {
      lines.push('', `${r.name}: ${r.metrics}`, `  LCP element: ${r.lcpElement ?? '?'} (${(r.lcpPhases ?? []).join(', ')})`);
      lines.push(`  opportunities: ${r.opportunities?.join(', ') || '(none)'}`, `  long tasks: ${r.longTasks?.join(', ') || '(none)'}`);
    }
  }
  lines.push('');
  if (misses.length === 0) lines.push('Every target met.');
  else {
    lines.push('Targets not met:', ...misses.map((m) => `  - ${m}`));
    lines.push('', 'Audits below 90 per page:', ...rows.map((r) => `  ${r.name}: ${r.failing.join(', ') || '(none)'}`));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exitCode = misses.length === 0 ? 0 : 1;
}

main().catch((err) => {
  process.stderr.write(`audit:web failed: ${err.stack ?? err.message}\n`);
  process.exit(2);
});
