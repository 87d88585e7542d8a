/**
 * `npm run bench` (issue 9, ARCHITECTURE §9): the embedded stack against a raw Node `http`
 * server answering the same bytes, in the same run, on the same machine.
 *
 * - The stack runs in a child process on a fresh temp data dir (NeDB files, in-process bus)
 *   with RATE_LIMITS=off, LOG_LEVEL=silent and BCRYPT_ROUNDS=4 (registration speed only); the
 *   raw server in another child; autocannon and the socket.io clients in this process.
 * - Seeding goes through the public HTTP API (the same path as a member's writes): slower
 *   than writing the stores, but every event flows and every read model (feed audiences,
 *   user cards, counters) is built exactly as in production.
 * - Sizes: BENCH_USERS (200), BENCH_REVIEWS (2000), BENCH_FOLLOWS (5 per user), BENCH_SECONDS
 *   per autocannon run (5), BENCH_CONNECTIONS (50), BENCH_SOCKETS (200). The issue's full size:
 *   BENCH_USERS=10000 BENCH_REVIEWS=100000.
 * - Output: one table on stdout and test-output/bench.json.
 */
import autocannon from 'autocannon';
import { ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, Socket } from 'socket.io-client';
import { CannedReply, ChildMessage, runChild } from './servers';

const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SIZE = {
  users: int('BENCH_USERS', 200),
  reviews: int('BENCH_REVIEWS', 2000),
  follows: int('BENCH_FOLLOWS', 5),
  products: int('BENCH_PRODUCTS', 60),
  seconds: int('BENCH_SECONDS', 5),
  connections: int('BENCH_CONNECTIONS', 50),
  sockets: int('BENCH_SOCKETS', 200),
};
const SEED_CONCURRENCY = 16;
const CATEGORIES = ['Electronics', 'Fitness', 'Kitchen', 'Home', 'Beauty', 'Fashion'];
const WORDS = ['Aero', 'Nova', 'Pulse', 'Terra', 'Lumen', 'Vivid', 'Orbit', 'Halo', 'Zen', 'Flux'];

interface User {
  id: string;
  username: string;
  token: string;
}

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  raw_rps: number;
  raw_p99: number;
  ratio: number;
  errors: number;
}

// ---------------------------------------------------------------- child processes

function startChild(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(__filename, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
    child.on('message', (msg: unknown) => {
      const ready = (msg as ChildMessage).ready;
      if (ready) resolve({ child, url: ready });
    });
  });
}

function ask(child: ChildProcess, message: unknown): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (msg: unknown) => {
      if (msg === 'settled') {
        child.off('message', onMessage);
        resolve();
      }
    };
    child.on('message', onMessage);
    child.send(message as object);
  });
}

/** Peak resident set of a process (Linux VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

// ---------------------------------------------------------------- HTTP seeding

class Api {
  constructor(private readonly url: string) {}

  async call<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as { data?: T; message?: string };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message ?? ''}`);
    return json.data as T;
  }
}

/** Runs `fn(0..n-1)` with at most `concurrency` in flight; results in order. */
async function pool<T>(n: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      out[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return out;
}

function progress(label: string, started: number): void {
  process.stdout.write(`  ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

interface Seeded {
  users: User[];
  productIds: string[];
  reviewIds: string[];
  conversations: { id: string; a: number; b: number }[];
}

async function seed(api: Api, settle: () => Promise<void>): Promise<Seeded> {
  let t = Date.now();
  const users = await pool(SIZE.users, SEED_CONCURRENCY, async (i) => {
    const { token, user } = await api.call<{ token: string; user: { id: string; username: string } }>('POST', '/api/auth/register', undefined, {
      email: `bench${i}@bench.local`,
      name: `Bench ${WORDS[i % WORDS.length]} ${i}`,
      password: 'bench1234',
    });
    return { id: user.id, username: user.username, token };
  });
  progress(`${users.length} users`, t);

  t = Date.now();
  const productIds = await pool(SIZE.products, SEED_CONCURRENCY, async (i) => {
    const product = await api.call<{ id: string }>('POST', '/api/products', users[i % users.length].token, {
      name: `${WORDS[i % WORDS.length]} ${['Pro', 'Mini', 'Max', 'Air', 'Go'][i % 5]} ${i}`,
      brand: `${WORDS[(i * 3) % WORDS.length]}co`,
      description: 'A product made for the benchmark.',
      price: 10 + (i % 90),
      category: CATEGORIES[i % CATEGORIES.length],
    });
    return product.id;
  });
  progress(`${productIds.length} products`, t);

  t = Date.now();
  const follows = Math.min(SIZE.follows, users.length - 1);
  await pool(users.length * follows, SEED_CONCURRENCY, async (n) => {
    const i = Math.floor(n / follows);
    const k = n % follows;
    // Spread over the whole population: neighbours plus a stride, never oneself.
    const target = (i + 1 + ((k * 7919) % (users.length - 1))) % users.length;
    await api.call('POST', `/api/follows/users/${users[target].id}`, users[i].token, {}).catch(() => undefined); // a repeat is fine
  });
  progress(`${users.length * follows} follows`, t);

  t = Date.now();
  const reviewIds = await pool(SIZE.reviews, SEED_CONCURRENCY, async (j) => {
    const author = j % users.length;
    const nth = Math.floor(j / users.length);
    // One review per member and product: a member's first reviews name distinct products.
    const withProduct = nth < productIds.length && j % 2 === 0;
    const review = await api.call<{ id: string }>('POST', '/api/reviews', users[author].token, {
      ...(withProduct && { product_id: productIds[(author + nth) % productIds.length], rating: 1 + (j % 5) }),
      title: `Bench review ${j}`,
      content: `Review ${j}: solid build, fair price, would buy again. ${WORDS[j % WORDS.length]} edition.`,
    });
    return review.id;
  });
  progress(`${reviewIds.length} reviews`, t);

  t = Date.now();
  const pairs = Math.floor(Math.min(SIZE.sockets, users.length) / 2);
  const conversations = await pool(pairs, SEED_CONCURRENCY, async (p) => {
    const a = 2 * p;
    const b = 2 * p + 1;
    const conversation = await api.call<{ id: string }>('POST', '/api/messages/conversations', users[a].token, { memberIds: [users[b].id] });
    return { id: conversation.id, a, b };
  });
  progress(`${conversations.length} conversations`, t);
  await settle();
  return { users, productIds, reviewIds, conversations };
}

// ---------------------------------------------------------------- HTTP scenarios

interface Target {
  scenario: string;
  method: 'GET' | 'POST';
  path: string;
  token: string;
  /** Paths rotated per request (like toggle over many reviews); `path` is the captured one. */
  rotate?: string[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function load(url: string, target: Target, authorize: boolean) {
  const times: number[] = [];
  let i = 0;
  const headers: Record<string, string> = authorize ? { authorization: `Bearer ${target.token}` } : {};
  if (target.method === 'POST') headers['content-type'] = 'application/json';
  const tracker = autocannon({
    url,
    connections: SIZE.connections,
    duration: SIZE.seconds,
    requests: [
      {
        method: target.method,
        path: target.path,
        headers,
        body: target.method === 'POST' ? '{}' : undefined,
        setupRequest: (req) => (target.rotate ? { ...req, path: target.rotate[i++ % target.rotate.length] } : req),
      },
    ],
  });
  tracker.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  const result = await tracker;
  times.sort((a, b) => a - b);
  const at = (p: number) => Number(percentile(times, p).toFixed(1));
  return {
    rps: result.requests.average,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function capture(url: string, target: Target): Promise<CannedReply> {
  const res = await fetch(`${url}${target.path}`, {
    method: target.method,
    headers: { authorization: `Bearer ${target.token}`, ...(target.method === 'POST' && { 'content-type': 'application/json' }) },
    body: target.method === 'POST' ? '{}' : undefined,
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? 'application/json', body: await res.text() };
}

async function compare(stackUrl: string, raw: { child: ChildProcess; url: string }, target: Target): Promise<Row> {
  const reply = await capture(stackUrl, target);
  if (reply.status >= 300) throw new Error(`${target.scenario}: ${target.method} ${target.path} answered ${reply.status} ${reply.body}`);
  const paths = target.rotate ?? [target.path];
  await ask(raw.child, { replies: Object.fromEntries(paths.map((p) => [`${target.method} ${p}`, reply])) });
  const stack = await load(stackUrl, target, true);
  const bare = await load(raw.url, target, false);
  const row: Row = {
    scenario: target.scenario,
    rps: Math.round(stack.rps),
    p50: stack.p50,
    p95: stack.p95,
    p99: stack.p99,
    raw_rps: Math.round(bare.rps),
    raw_p99: bare.p99,
    ratio: Number((stack.rps / bare.rps).toFixed(3)),
    errors: stack.errors,
  };
  process.stdout.write(`  ${row.scenario}: ${row.rps} req/s (raw ${row.raw_rps}), p99 ${row.p99} ms\n`);
  return row;
}

// ---------------------------------------------------------------- socket scenarios

function connect(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const now = () => performance.now();

/**
 * Every pair's first member sends; the second one's `new-message` stops the clock. `spreadMs`
 * 0: all pairs send at the same instant each round (a burst of 100 messages: mostly the time
 * the burst takes to go through, queueing included); otherwise each pair sends once at a
 * random moment within each `spreadMs` window (100 senders, each a message a second).
 */
async function messageLatency(url: string, data: Seeded, rounds: number, spreadMs: number): Promise<number[]> {
  const sockets = await Promise.all(data.conversations.flatMap((c) => [connect(url, data.users[c.a].token), connect(url, data.users[c.b].token)]));
  const latencies: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        data.conversations.map(async (c, p) => {
          if (spreadMs > 0) await new Promise((r) => setTimeout(r, Math.random() * spreadMs));
          const [sender, receiver] = [sockets[2 * p], sockets[2 * p + 1]];
          const content = `bench ${spreadMs} ${round}-${p}`;
          const received = new Promise<number>((resolve) => {
            const onMessage = (m: { content?: string }) => {
              if (m.content !== content) return;
              receiver.off('new-message', onMessage);
              resolve(now());
            };
            receiver.on('new-message', onMessage);
          });
          const sent = now();
          sender.emit('send-message', { conversationId: c.id, content });
          latencies.push((await withTimeout(received, 5000)) - sent);
        }),
      );
    }
  } finally {
    sockets.forEach((s) => s.disconnect());
  }
  return latencies;
}

/** A like on the author's newest reviews, each by another member; the author's `notification` stops the clock. */
async function notificationLatency(url: string, api: Api, data: Seeded, samples: number): Promise<number[]> {
  const author = data.users[0];
  const reviews = await pool(samples, 4, (i) => api.call<{ id: string }>('POST', '/api/reviews', author.token, { content: `Fresh review ${i} for the notification probe.` }));
  const socket = await connect(url, author.token);
  const latencies: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const liker = data.users[1 + (i % (data.users.length - 1))];
      const arrived = new Promise<number>((resolve) => socket.once('notification', () => resolve(now())));
      const started = now();
      await api.call('POST', `/api/likes/reviews/${reviews[i].id}`, liker.token, {});
      latencies.push((await withTimeout(arrived, 5000)) - started);
    }
  } finally {
    socket.disconnect();
  }
  return latencies;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no delivery within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function summary(name: string, values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (v: number) => Number(v.toFixed(1));
  return { scenario: name, samples: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)) };
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'squadreviews-bench-'));
  process.stdout.write(`bench: ${JSON.stringify(SIZE)}, data in ${dataDir}\n`);
  const stack = await startChild(['--serve-stack', dataDir], { RATE_LIMITS: 'off', LOG_LEVEL: 'silent', BCRYPT_ROUNDS: '4' });
  const raw = await startChild(['--serve-raw'], {});
  const api = new Api(stack.url);
  const settle = () => ask(stack.child, 'settle');
  try {
    const started = Date.now();
    process.stdout.write('seeding through the HTTP API:\n');
    const data = await seed(api, settle);
    const seedSeconds = Math.round((Date.now() - started) / 1000);
    const reader = data.users[0];
    const profileOf = data.users[Math.min(5, data.users.length - 1)];

    process.stdout.write(`measuring (${SIZE.connections} connections, ${SIZE.seconds} s each):\n`);
    const rows: Row[] = [];
    rows.push(await compare(stack.url, raw, { scenario: 'feed page', method: 'GET', path: '/api/feed?page=1&limit=10', token: reader.token }));
    rows.push(await compare(stack.url, raw, { scenario: 'product search', method: 'GET', path: `/api/products?search=${WORDS[3]}&page=1&limit=12`, token: reader.token }));
    rows.push(await compare(stack.url, raw, { scenario: 'profile page', method: 'GET', path: `/api/users/profile/${profileOf.username}`, token: reader.token }));
    const likePaths = data.reviewIds.slice(0, 200).map((id) => `/api/likes/reviews/${id}`);
    rows.push(await compare(stack.url, raw, { scenario: 'like toggle', method: 'POST', path: likePaths[0], token: reader.token, rotate: likePaths }));
    rows.push(await compare(stack.url, raw, { scenario: 'unread count', method: 'GET', path: '/api/notifications/unread-count', token: profileOf.token }));
    await settle();

    process.stdout.write(`sockets: ${data.conversations.length * 2} connected\n`);
    const sockets = data.conversations.length * 2;
    const pairs = data.conversations.length;
    const messages = summary(`message send-to-receive (${sockets} sockets)`, await messageLatency(stack.url, data, 5, 1000));
    const burst = summary(`message burst (${pairs} sent at once)`, await messageLatency(stack.url, data, 5, 0));
    const notifications = summary('like-to-notification', await notificationLatency(stack.url, api, data, 50));
    const rssMb = peakRssMb(stack.child.pid as number);

    const latency = [messages, burst, notifications];
    const report = { size: SIZE, seedSeconds, http: rows, latency, peakRssMb: rssMb, at: new Date().toISOString() };
    mkdirSync('test-output', { recursive: true });
    writeFileSync('test-output/bench.json', JSON.stringify(report, null, 2));
    printTable(rows, latency, rssMb);
  } finally {
    raw.child.kill('SIGTERM');
    stack.child.kill('SIGTERM');
    await new Promise((r) => stack.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(rows: Row[], latency: ReturnType<typeof summary>[], rssMb: number): void {
  const pad = (v: unknown, n: number) => String(v).padStart(n);
  const ms = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(1));
  const lines = [
    '',
    `${'scenario'.padEnd(40)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}${pad('p99 ms', 9)}${pad('raw req/s', 11)}${pad('raw p99', 9)}${pad('ratio', 8)}${pad('errors', 8)}`,
    ...rows.map((r) => `${r.scenario.padEnd(40)}${pad(r.rps, 9)}${pad(ms(r.p50), 9)}${pad(ms(r.p95), 9)}${pad(ms(r.p99), 9)}${pad(r.raw_rps, 11)}${pad(ms(r.raw_p99), 9)}${pad(r.ratio.toFixed(3), 8)}${pad(r.errors, 8)}`),
    ...latency.map((l) => `${l.scenario.padEnd(40)}${pad('', 9)}${pad(ms(l.p50), 9)}${pad(ms(l.p95), 9)}${pad(ms(l.p99), 9)}${pad(`n=${l.samples}`, 11)}`),
    `${'peak RSS of the stack'.padEnd(40)}${pad(`${rssMb} MB`, 9)}`,
    '',
    'written: test-output/bench.json',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

const mode = process.argv[2];
if (mode === '--serve-stack' || mode === '--serve-raw') {
  runChild(mode, process.argv[3]);
} else {
  main().then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`bench failed: ${err.stack}\n`);
      process.exit(1);
    },
  );
}
