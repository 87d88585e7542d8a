import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { benchProfile, BenchProfile, startBenchEngines } from './bench-profiles';
import { ask, startChild, stopChild } from './stack-child';

/**
 * Consistency windows (issue 46): for each cause and effect a member sees, the time from the
 * write's reply to the first read that shows the effect, over SAMPLES writes, while READERS
 * members read their feeds in a loop as background load. Built and run once per profile:
 *   npx swc infra/bench -d dist --config-file .swcrc -q && npm run --silent build:server
 *   node dist/infra/bench/src/consistency-windows.js                                          # embedded
 *   BENCH_PROFILE=distributed-postgres node dist/infra/bench/src/consistency-windows.js     # a process per service
 * The distributed profile is the bench's (bench-profiles.ts): a private redis-server and PostgreSQL,
 * the launcher under a control child. Each window is measured by reading through the gateway until
 * the effect shows; the stack is settled only between samples, so one sample's events do not
 * lag into the next. A read that shows the effect at once counts 0 ms.
 */
const SAMPLES = Number(process.env.WINDOW_SAMPLES) || 40;
const READERS = Number(process.env.WINDOW_READERS) || 4;
const STACK_ENV = { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' };

interface Session {
  id: string;
  username: string;
  token: string;
}

interface Stack {
  url: string;
  /** Every event emitted so far handled (between samples only). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** The embedded stack in this process, or the bench's distributed one (its own engines, a process per service). */
async function startStack(profile: BenchProfile): Promise<Stack> {
  if (profile === 'embedded') {
    const stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: STACK_ENV });
    return { url: stack.url, settle: () => stack.settle(), close: () => stack.close() };
  }
  const engines = await startBenchEngines();
  const dataDir = mkdtempSync(join(tmpdir(), 'squadreviews-windows-'));
  try {
    const { child, url } = await startChild(['--serve-distributed', dataDir], { ...STACK_ENV, ...engines.env });
    return {
      url,
      settle: () => ask(child, 'settle'),
      close: async () => {
        await stopChild(child);
        await engines.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await engines.stop();
    throw err;
  }
}

async function main(): Promise<void> {
  const profile = benchProfile();
  const stack = await startStack(profile);
  const call = async (method: string, path: string, who?: Session, body?: unknown): Promise<{ status: number; data: unknown }> => {
    const res = await fetch(`${stack.url}/api${path}`, {
      method,
      headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), ...(who && { Authorization: `Bearer ${who.token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as { data?: unknown };
    return { status: res.status, data: json.data };
  };
  const results: Record<string, number[]> = {};
  const record = (name: string, ms: number) => (results[name] ??= []).push(ms);
  let n = 0;
  const register = async (): Promise<Session> => {
    const name = `Window${n++}`;
    const { status, data } = await call('POST', '/auth/register', undefined, { email: `${name.toLowerCase()}@example.com`, name, password: 'lamp-desk-battery-42' });
    if (status !== 201) throw new Error(`register: ${status}`);
    const d = data as { token: string; user: { id: string; username: string } };
    return { id: d.user.id, username: d.user.username, token: d.token };
  };
  const ok = (status: number) => status >= 200 && status < 300;
  const must = async (p: Promise<{ status: number; data: unknown }>, what: string) => {
    const res = await p;
    if (!ok(res.status)) throw new Error(`${what}: ${res.status}`);
    return res.data;
  };
  const feedIds = async (who: Session) => ((await call('GET', '/feed', who)).data as { id: string }[]).map((r) => r.id);
  /** Milliseconds from now until `seen()` holds (0 when the first read shows it); the first read's own time is the resolution. */
  const windowOf = async (seen: () => Promise<boolean>): Promise<number> => {
    const replied = performance.now();
    const shown = await seen();
    record('(a first read itself: the resolution)', performance.now() - replied);
    if (shown) return 0;
    for (;;) {
      if (await seen()) return performance.now() - replied;
      if (performance.now() - replied > 30_000) throw new Error('no effect after 30 s');
    }
  };

  const admin = await register(); // the first account is the admin
  const readers = await Promise.all(Array.from({ length: READERS }, register));
  let loading = true;
  const load = Promise.all(readers.map(async (r) => {
    while (loading) await call('GET', '/feed', r);
  }));

  let products = 0;
  const post = async (author: Session) => {
    const product = (await must(call('POST', '/products', admin, { name: `Thing ${products++}`, category: 'Home', price: 3 }), 'product')) as { id: string };
    return ((await must(call('POST', '/reviews', author, { product_id: product.id, rating: 4, content: 'Measured' }), 'review')) as { id: string }).id;
  };

  for (let i = 0; i < SAMPLES; i++) {
    const [a, b] = [await register(), await register()];
    await stack.settle();
    const first = await post(a);
    await stack.settle();
    await must(call('POST', `/follows/users/${a.id}`, b), 'follow');
    record('follow → feed', await windowOf(async () => (await feedIds(b)).includes(first)));
    const second = await post(a);
    record('review → follower’s feed', await windowOf(async () => (await feedIds(b)).includes(second)));
    await must(call('POST', `/likes/reviews/${second}`, b), 'like');
    record('like → counts', await windowOf(async () => ((await call('GET', `/reviews/${second}`, a)).data as { like_count: number }).like_count === 1));
    await must(call('POST', `/users/${a.id}/mute`, b), 'mute');
    record('mute → feed', await windowOf(async () => !(await feedIds(b)).includes(second)));
    await must(call('DELETE', `/users/${a.id}/mute`, b), 'unmute');
    await stack.settle();
    await must(call('DELETE', `/follows/users/${a.id}`, b), 'unfollow');
    record('unfollow → feed', await windowOf(async () => !(await feedIds(b)).includes(second)));
    await must(call('POST', `/follows/users/${a.id}`, b), 'follow again');
    await stack.settle();
    await feedIds(b);
    await must(call('POST', `/users/${b.id}/block`, a), 'block');
    record('block → feed', await windowOf(async () => !(await feedIds(b)).includes(second)));
    record('block → conversations', await windowOf(async () => (await call('POST', '/messages/conversations', b, { memberIds: [a.id] })).status === 403));
    await must(call('PUT', `/moderation/roles/${a.id}`, admin, { role: 'moderator', reason: 'window' }), 'role');
    record('role → rights', await windowOf(async () => (await call('GET', '/moderation/reports', a)).status === 200));
  }
  loading = false;
  await load;
  await stack.close();

  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const lines = ['| cause → effect | samples | p50 ms | p99 ms | max ms |', '|---|---|---|---|---|'];
  for (const [name, values] of Object.entries(results)) {
    const sorted = [...values].sort((x, y) => x - y);
    lines.push(`| ${name} | ${sorted.length} | ${pct(sorted, 50).toFixed(1)} | ${pct(sorted, 99).toFixed(1)} | ${sorted[sorted.length - 1].toFixed(1)} |`);
  }
  process.stdout.write(`${profile}, ${SAMPLES} samples, ${READERS} readers:\n${lines.join('\n')}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`consistency windows: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
