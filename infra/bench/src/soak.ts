/**
 * `npm run soak` (issue 11 §8): SOAK_SECONDS (600) of mixed load on the embedded stack in a
 * child process, its resident set sampled every SOAK_SAMPLE_SECONDS (10).
 *
 * - Load: SOAK_RPS (60) HTTP requests a second from SOAK_WORKERS (12) members, mixed like the
 *   bench's scenarios (feed pages, product search, profiles, unread count and notification
 *   list polling, like toggles, comments), plus SOAK_PAIRS (10) pairs of socket.io members
 *   chatting (one `send-message` per pair every SOAK_MESSAGE_MS, 2000, each acknowledged
 *   and delivered to the other member's socket).
 * - Fails (exit 1) when any request or message fails (non-2xx, network error, failed ack,
 *   no delivery within 5 s), or when the stack's RSS at the end is more than SOAK_RSS_GROWTH
 *   (0.25) above its RSS after the warm-up (the first SOAK_WARMUP_SECONDS, 10% of the run,
 *   at least 30 s). Data does grow (comments, messages, notifications): the bound is loose
 *   enough for that and tight enough to catch a leak per request.
 * - Output: a summary on stdout and test-output/soak.json.
 */
import { ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, Socket } from 'socket.io-client';
import { startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { tuneHeap } from '@app/platform';
import { statusMbOf } from './bench-profiles';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = num('SOAK_SECONDS', 600);
const SETTINGS = {
  seconds: SECONDS,
  rps: num('SOAK_RPS', 60),
  workers: num('SOAK_WORKERS', 12),
  pairs: num('SOAK_PAIRS', 10),
  messageMs: num('SOAK_MESSAGE_MS', 2000),
  sampleSeconds: num('SOAK_SAMPLE_SECONDS', 10),
  warmupSeconds: num('SOAK_WARMUP_SECONDS', Math.max(30, Math.round(SECONDS / 10))),
  rssGrowth: num('SOAK_RSS_GROWTH', 0.25),
};
const DELIVERY_TIMEOUT_MS = 5_000;
/** Strong enough for registration's password check (zxcvbn score >= 2: `bench1234` is refused). */
const SOAK_PASSWORD = 'soak-kettle-orbit-17';

interface Member {
  id: string;
  username: string;
  token: string;
}

// ---------------------------------------------------------------- the stack child

type ChildReply = { ready: string } | { settled: true } | { heapMb: number };

/** The child: the embedded stack, answering 'settle' and 'heap' (used heap after a full GC). */
async function serveStack(dataDir: string): Promise<void> {
  // the heap as `npm start` tunes it: the soak measures what a running stack holds
  tuneHeap();
  const stack = await startEmbeddedStack({ port: 0, dataDir, seed: false });
  const reply = (msg: ChildReply) => process.send?.(msg);
  reply({ ready: stack.url });
  process.on('message', (msg: unknown) => {
    if (msg === 'settle') void stack.settle().then(() => reply({ settled: true }));
    if (msg === 'heap') {
      (globalThis as { gc?: () => void }).gc?.();
      reply({ heapMb: Math.round(process.memoryUsage().heapUsed / 1024 / 1024) });
    }
  });
  process.on('SIGTERM', () => void stack.close().finally(() => process.exit(0)));
}

function startStack(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const env = { ...process.env, RATE_LIMITS: 'off', LOG_LEVEL: 'silent', BCRYPT_ROUNDS: '4' };
  const child = fork(__filename, ['--serve-stack', dataDir], { env, execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the stack exited with ${code}`)));
    child.on('message', (msg: ChildReply) => {
      if ('ready' in msg) resolve({ child, url: msg.ready });
    });
  });
}

function ask<K extends 'settled' | 'heapMb'>(child: ChildProcess, command: 'settle' | 'heap', key: K): Promise<Extract<ChildReply, Record<K, unknown>>> {
  return new Promise((resolve) => {
    const onMessage = (msg: ChildReply) => {
      if (!(key in msg)) return;
      child.off('message', onMessage);
      resolve(msg as Extract<ChildReply, Record<K, unknown>>);
    };
    child.on('message', onMessage);
    child.send(command);
  });
}


// ---------------------------------------------------------------- HTTP

class ApiError extends Error {}

async function call<T>(url: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await res.json().catch(() => ({}))) as { data?: T; message?: string };
  if (!res.ok) throw new ApiError(`${method} ${path.split('?', 1)[0]}: ${res.status} ${json.message ?? ''}`);
  return json.data as T;
}

interface World {
  url: string;
  members: Member[];
  productIds: string[];
  reviewIds: string[];
  conversations: { id: string; a: Member; b: Member }[];
}

async function seed(url: string): Promise<World> {
  const count = Math.max(SETTINGS.workers, SETTINGS.pairs * 2);
  const members: Member[] = [];
  for (let i = 0; i < count; i++) {
    const { token, user } = await call<{ token: string; user: { id: string; username: string } }>(url, 'POST', '/api/auth/register', undefined, {
      email: `soak${i}@soak.local`,
      name: `Soak Member ${i}`,
      password: SOAK_PASSWORD,
    });
    members.push({ id: user.id, username: user.username, token });
  }
  for (const [i, m] of members.entries()) {
    for (const k of [1, 2, 3]) await call(url, 'POST', `/api/follows/users/${members[(i + k) % count].id}`, m.token, {});
  }
  const productIds: string[] = [];
  for (let i = 0; i < 10; i++) {
    const p = await call<{ id: string }>(url, 'POST', '/api/products', members[i % count].token, {
      name: `Soak Product ${i}`,
      brand: 'Soakco',
      description: 'A product for the soak test.',
      price: 20 + i,
      category: 'Electronics',
    });
    productIds.push(p.id);
  }
  const reviewIds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const r = await call<{ id: string }>(url, 'POST', '/api/reviews', members[i % count].token, {
      title: `Soak review ${i}`,
      content: `Review ${i} for the soak: holds up, fair price.`,
    });
    reviewIds.push(r.id);
  }
  const conversations: World['conversations'] = [];
  for (let p = 0; p < SETTINGS.pairs; p++) {
    const [a, b] = [members[2 * p], members[2 * p + 1]];
    const c = await call<{ id: string }>(url, 'POST', '/api/messages/conversations', a.token, { memberIds: [b.id] });
    conversations.push({ id: c.id, a, b });
  }
  return { url, members, productIds, reviewIds, conversations };
}

// ---------------------------------------------------------------- load

class Tally {
  readonly counts = new Map<string, number>();
  readonly errors: string[] = [];
  errorCount = 0;

  ok(kind: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  fail(kind: string, err: unknown): void {
    this.errorCount++;
    // Keep (and show) the first few: enough to see what broke without flooding the report.
    if (this.errors.length >= 20) return;
    const line = `${new Date().toISOString()} ${kind}: ${(err as Error).message}`;
    this.errors.push(line);
    process.stdout.write(`  error ${line}\n`);
  }
}

type Action = { kind: string; weight: number; run: (m: Member, n: number) => Promise<unknown> };

function actions(w: World): Action[] {
  const pick = <T>(list: T[], n: number) => list[n % list.length];
  return [
    { kind: 'feed', weight: 30, run: (m, n) => call(w.url, 'GET', `/api/feed?page=${1 + (n % 3)}&limit=10`, m.token) },
    { kind: 'products', weight: 10, run: (m, n) => call(w.url, 'GET', `/api/products?search=Soak&page=1&limit=${6 + (n % 6)}`, m.token) },
    { kind: 'profile', weight: 10, run: (m, n) => call(w.url, 'GET', `/api/users/profile/${pick(w.members, n).username}`, m.token) },
    { kind: 'unread-count', weight: 15, run: (m) => call(w.url, 'GET', '/api/notifications/unread-count', m.token) },
    { kind: 'notifications', weight: 10, run: (m) => call(w.url, 'GET', '/api/notifications?page=1&limit=20', m.token) },
    { kind: 'like', weight: 15, run: (m, n) => call(w.url, 'POST', `/api/likes/reviews/${pick(w.reviewIds, n)}`, m.token, {}) },
    {
      kind: 'comment',
      weight: 10,
      run: (m, n) => call(w.url, 'POST', `/api/reviews/${pick(w.reviewIds, n * 7)}/comments`, m.token, { content: `Soak comment ${n}` }),
    },
  ];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function httpWorker(w: World, me: Member, until: number, tally: Tally): Promise<void> {
  const list = actions(w);
  const total = list.reduce((s, a) => s + a.weight, 0);
  const interval = (1000 * SETTINGS.workers) / SETTINGS.rps;
  for (let n = 0; Date.now() < until; n++) {
    const started = Date.now();
    let roll = Math.random() * total;
    const action = list.find((a) => (roll -= a.weight) < 0) ?? list[0];
    try {
      await action.run(me, n);
      tally.ok(action.kind);
    } catch (err) {
      tally.fail(action.kind, err);
    }
    await sleep(Math.max(0, interval - (Date.now() - started)));
  }
}

function connect(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** One pair chatting: a sends, b must receive it; they swap roles every message. */
async function chat(w: World, pair: World['conversations'][number], until: number, tally: Tally): Promise<void> {
  const sockets = [await connect(w.url, pair.a.token), await connect(w.url, pair.b.token)];
  try {
    for (let n = 0; Date.now() < until; n++) {
      const started = Date.now();
      const [sender, receiver] = n % 2 === 0 ? sockets : [sockets[1], sockets[0]];
      const content = `soak ${pair.id} ${n}`;
      try {
        const delivered = new Promise<void>((resolve) => {
          const onMessage = (m: { content?: string }) => {
            if (m.content !== content) return;
            receiver.off('new-message', onMessage);
            resolve();
          };
          receiver.on('new-message', onMessage);
        });
        // Rejects when no ack comes within the time-out.
        const ack = (await sender.timeout(DELIVERY_TIMEOUT_MS).emitWithAck('send-message', { conversationId: pair.id, content })) as {
          success: boolean;
          message?: string;
        };
        if (!ack.success) throw new Error(`ack failed: ${ack.message}`);
        await within(delivered, DELIVERY_TIMEOUT_MS, 'no delivery');
        tally.ok('message');
      } catch (err) {
        tally.fail('message', err);
      }
      await sleep(Math.max(0, SETTINGS.messageMs - (Date.now() - started)));
    }
  } finally {
    sockets.forEach((s) => s.disconnect());
  }
}

// ---------------------------------------------------------------- main

interface Sample {
  second: number;
  rssMb: number;
  /** Used heap right after a full GC: what a leak would grow. */
  heapMb: number;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'squadreviews-soak-'));
  process.stdout.write(`soak: ${JSON.stringify(SETTINGS)}, data in ${dataDir}\n`);
  const stack = await startStack(dataDir);
  const pid = stack.child.pid as number;
  const tally = new Tally();
  const samples: Sample[] = [];
  try {
    const world = await seed(stack.url);
    await ask(stack.child, 'settle', 'settled');
    process.stdout.write(`seeded ${world.members.length} members, ${world.reviewIds.length} reviews; load for ${SETTINGS.seconds} s\n`);

    const started = Date.now();
    const until = started + SETTINGS.seconds * 1000;
    const sample = async (): Promise<void> => {
      const { heapMb } = await ask(stack.child, 'heap', 'heapMb');
      const s = { second: Math.round((Date.now() - started) / 1000), rssMb: Math.round(statusMbOf(pid, 'VmRSS')), heapMb };
      samples.push(s);
      const done = [...tally.counts.values()].reduce((sum, v) => sum + v, 0);
      process.stdout.write(`  ${String(s.second).padStart(4)} s  rss ${s.rssMb} MB  heap ${s.heapMb} MB  ok ${done}  errors ${tally.errorCount}\n`);
    };
    const sampler = setInterval(() => void sample(), SETTINGS.sampleSeconds * 1000);
    await sample();
    await Promise.all([
      ...world.members.slice(0, SETTINGS.workers).map((m) => httpWorker(world, m, until, tally)),
      ...world.conversations.map((pair) => chat(world, pair, until, tally)),
    ]);
    clearInterval(sampler);
    await sample();

    const report = verdict(samples, tally);
    mkdirSync('test-output', { recursive: true });
    writeFileSync('test-output/soak.json', JSON.stringify({ settings: SETTINGS, ...report, samples, at: new Date().toISOString() }, null, 2));
    process.stdout.write(`\n${JSON.stringify({ ...report, requests: Object.fromEntries(tally.counts) }, null, 2)}\nwritten: test-output/soak.json\n`);
    if (!report.passed) process.exitCode = 1;
  } finally {
    stack.child.kill('SIGTERM');
    await new Promise((r) => stack.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function verdict(samples: Sample[], tally: Tally) {
  const afterWarmup = samples.filter((s) => s.second >= SETTINGS.warmupSeconds);
  const baseline = afterWarmup[0]?.rssMb ?? samples[samples.length - 1].rssMb;
  // The end is the mean of the last three samples: one GC-timed sample should not decide.
  const tail = samples.slice(-3);
  const end = Math.round(tail.reduce((s, x) => s + x.rssMb, 0) / tail.length);
  const bound = Math.round(baseline * (1 + SETTINGS.rssGrowth));
  const total = [...tally.counts.values()].reduce((s, v) => s + v, 0);
  const problems = [
    ...(tally.errorCount > 0 ? [`${tally.errorCount} failed requests or messages`] : []),
    ...(end > bound ? [`RSS grew from ${baseline} MB to ${end} MB (bound ${bound} MB)`] : []),
  ];
  return {
    passed: problems.length === 0,
    problems,
    ok: total,
    errors: tally.errorCount,
    firstErrors: tally.errors,
    rss: { start: samples[0].rssMb, afterWarmup: baseline, end, max: Math.max(...samples.map((s) => s.rssMb)), bound },
    heapAfterGc: { start: samples[0].heapMb, afterWarmup: afterWarmup[0]?.heapMb, end: samples[samples.length - 1].heapMb },
  };
}

const mode = process.argv[2];
if (mode === '--serve-stack') {
  serveStack(process.argv[3]).catch((err: Error) => {
    process.stderr.write(`stack failed: ${err.stack}\n`);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (err: Error) => {
      process.stderr.write(`soak failed: ${err.stack}\n`);
      process.exit(1);
    },
  );
}
