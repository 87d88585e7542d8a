import { performance } from 'node:perf_hooks';
import { startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Consistency windows (issue 46): for each cause and effect a member sees, the time from the
 * write's reply to the first read that shows the effect, over SAMPLES writes, while READERS
 * members read their feeds in a loop as background load. Run once on the embedded profile:
 *   npx swc infra/bench -d dist --config-file .swcrc -q && npm run --silent build:server && node dist/infra/bench/src/consistency-windows.js
 * A read that shows the effect at once counts 0 ms.
 */
const SAMPLES = Number(process.env.WINDOW_SAMPLES) || 40;
const READERS = Number(process.env.WINDOW_READERS) || 4;

interface Session {
  id: string;
  username: string;
  token: string;
}

async function main(): Promise<void> {
  const stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
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
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`consistency windows: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
