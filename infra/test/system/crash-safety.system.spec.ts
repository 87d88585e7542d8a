import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from 'pg';
import { buildServer } from '@app/testing';
import { PostgresServerHandle, postgresServerAvailable, startPostgresServer } from '@app/testing/engines';
import { probe, ProbeReply } from './http-probe';

/**
 * Issue 11 §2: the embedded profile killed with SIGKILL in the middle of a burst of writes
 * restarts on the same data with every acknowledged write present and counters consistent.
 * A counter is written after its row, so the kill can land between the two; the counter repair
 * pass each service runs at boot (COUNTER_REPAIR, on by default) puts it right before the stack
 * serves, so the counters are checked at once after the restart, without waiting.
 * Events are checked too: every row that survived has its notification, whether the kill came
 * before its event was stored, published, or handled (the outbox relays or drops each intent).
 * It runs on each store the profile can keep its data in: SQLite files, then PostgreSQL (issue 29,
 * a private server this suite starts; under CI=true a missing one fails the run).
 */

const ROOT = resolve(__dirname, '../../..');
const MEMBERS = 24;

interface Member {
  id: string;
  username: string;
  token: string;
}

interface StoreProfile {
  name: string;
  /** Starts what the store needs; the stack's environment for it. */
  start(): Promise<NodeJS.ProcessEnv>;
  /** The likes of a review stored in this engine, read beside the stack (proof it kept them there). */
  likesStored(dataDir: string, reviewId: string): number | Promise<number>;
  stop(): Promise<void>;
}

function sqliteLikes(dataDir: string, reviewId: string): number {
  const db = new BetterSqlite3(join(dataDir, 'reviews', 'reviews.sqlite'), { readonly: true });
  try {
    return Number(db.prepare(`SELECT count(*) FROM likes WHERE json_extract(doc, '$.review_id') = ?`).pluck().get(reviewId));
  } finally {
    db.close();
  }
}

async function postgresLikes(url: string, reviewId: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query(`SELECT count(*) AS n FROM reviews.likes WHERE doc ->> 'review_id' = $1`, [reviewId])).rows[0].n);
  } finally {
    await client.end();
  }
}

function storeProfiles(): StoreProfile[] {
  const profiles: StoreProfile[] = [{ name: 'SQLite', start: async () => ({ STORE: 'sqlite' }), likesStored: sqliteLikes, stop: async () => {} }];
  if (postgresServerAvailable() || process.env.CI === 'true') {
    let server: PostgresServerHandle | undefined;
    let url = '';
    profiles.push({
      name: 'PostgreSQL',
      start: async () => {
        server = await startPostgresServer();
        url = await server.createDatabase('squadreviews');
        return { STORE: 'postgres', POSTGRES_URL: url };
      },
      likesStored: (_dataDir, reviewId) => postgresLikes(url, reviewId),
      stop: async () => server?.stop(),
    });
  } else {
    process.stderr.write('crash-safety: PostgreSQL binaries not found, its run is skipped (install postgresql)\n');
  }
  return profiles;
}

describe.each(storeProfiles())('crash safety of the embedded profile (SIGKILL mid-burst), $name store', (store) => {
  let dataDir: string;
  let storeEnv: NodeJS.ProcessEnv = {};
  let child: ChildProcess | undefined;
  let url = '';
  /** What the counter repair pass logged at each boot ("<service>: <fixed per counter>"), for the report line. */
  let repairs: string[] = [];

  async function start(): Promise<void> {
    // PORT=0: the stack takes a port the kernel gives it and prints its address (a port probed free
    // here and bound later by the child could be taken meanwhile by another suite's server).
    // No JWT_SECRET: the embedded profile keeps its own in DATA_DIR, so tokens outlive the restart.
    const env: NodeJS.ProcessEnv = { ...process.env, ...storeEnv, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', RATE_LIMITS: 'off', LOG_LEVEL: 'warn', SEED_DEMO: 'off' };
    delete env.JWT_SECRET;
    const proc = spawn(process.execPath, ['dist/infra/launcher/src/embedded.js'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    url = '';
    repairs = [];
    const lastLines: string[] = [];
    const keep = (line: string) => {
      lastLines.push(line);
      if (lastLines.length > 30) lastLines.shift();
    };
    createInterface({ input: proc.stderr! }).on('line', keep);
    // Read every line (a full pipe would stall the stack); keep the address and the repair pass's lines.
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      keep(line);
      const address = /is running at (http:\/\/\S+)/.exec(line)?.[1];
      if (address) url = address;
      if (!line.includes('counterRepair')) return;
      try {
        const { service, counterRepair } = JSON.parse(line) as { service: string; counterRepair: { fixed: Record<string, number> } };
        repairs.push(`${service}: ${JSON.stringify(counterRepair.fixed)}`);
      } catch {
        // not a JSON log line
      }
    });
    const until = Date.now() + 60_000;
    while (Date.now() < until && proc.exitCode === null) {
      const ready = url ? await probe(url, { method: 'GET', path: '/health/ready', timeoutMs: 1000 }).catch(() => undefined) : undefined;
      if (ready?.status === 200) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    const why = proc.exitCode === null ? 'did not become ready within 60 s' : `exited with ${proc.exitCode} before it was ready`;
    throw new Error(`the embedded stack ${why}; its last lines:\n${lastLines.join('\n')}`);
  }

  function kill(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return Promise.resolve();
    return new Promise((done) => {
      proc.once('exit', () => done());
      proc.kill('SIGKILL');
    });
  }

  const api = (method: string, path: string, m?: Member, body?: unknown): Promise<ProbeReply> =>
    probe(url, { method, path, token: m?.token, body, timeoutMs: 10_000 });

  const ids = async (path: string, m: Member): Promise<string[]> =>
    ((await api('GET', path, m)).json as { data: { id: string }[] }).data.map((u) => u.id).sort();

  type Notified = Record<'new_follower' | 'review_liked' | 'comment', string[]>;

  /** Who each kind of the member's notifications came from, once they match `rows` or 15 s have passed. */
  async function notificationsSettled(m: Member, rows: Notified): Promise<Notified> {
    const until = Date.now() + 15_000;
    for (;;) {
      const seen: Notified = { new_follower: [], review_liked: [], comment: [] };
      for (let page = 1; ; page++) {
        const res = (await api('GET', `/api/notifications?limit=50&page=${page}`, m)).json as {
          data: { type: string; related_user: { id: string } | null }[];
          meta: { totalPages: number };
        };
        for (const n of res.data) if (n.type in seen && n.related_user) seen[n.type as keyof Notified].push(n.related_user.id);
        if (page >= res.meta.totalPages) break;
      }
      for (const list of Object.values(seen)) list.sort();
      if (JSON.stringify(seen) === JSON.stringify(rows) || Date.now() > until) return seen;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  beforeAll(async () => {
    buildServer(ROOT);
    dataDir = mkdtempSync(join(tmpdir(), 'crash-safety-'));
    // An existing marker skips the demo seed: this test brings its own members.
    writeFileSync(join(dataDir, '.seeded'), 'test');
    storeEnv = await store.start();
    await start();
  }, 60_000);

  afterAll(async () => {
    await kill();
    await store.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every acknowledged like, follow, comment and message survives, and the counters and last message agree with the rows', async () => {
    const members: Member[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const res = await api('POST', '/api/auth/register', undefined, { email: `m${i}@crash.test`, name: `Member ${i}`, password: 'lamp-desk-battery-42' });
      expect(res.status).toBe(201);
      const data = (res.json as { data: { token: string; user: { id: string; username: string } } }).data;
      members.push({ id: data.user.id, username: data.user.username, token: data.token });
    }
    const [author, ...crowd] = members;
    const review = await api('POST', '/api/reviews', author, { content: 'Crash me if you can.' });
    expect(review.status).toBe(201);
    const reviewId = (review.json as { data: { id: string } }).data.id;
    // The messaging service learns of new members from their user.registered events: on a loaded
    // machine (or a slower store) they may not have landed yet, and it answers 400 until they have.
    let chat = await api('POST', '/api/messages/conversations', author, { memberIds: crowd.map((m) => m.id) });
    for (const until = Date.now() + 15_000; chat.status === 400 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 250));
      chat = await api('POST', '/api/messages/conversations', author, { memberIds: crowd.map((m) => m.id) });
    }
    expect(chat.status).toBe(201);
    const chatId = (chat.json as { data: { id: string } }).data.id;

    // The burst: every member likes, follows the author, comments and writes in the group chat, all at
    // once; SIGKILL after a third are acknowledged.
    const acked = { likes: new Set<string>(), follows: new Set<string>(), comments: new Map<string, string>(), messages: new Set<string>() };
    let acks = 0;
    let killing: Promise<void> | undefined;
    const total = crowd.length * 4;
    const note = () => {
      acks++;
      if (acks >= total / 3 && !killing) killing = kill();
    };
    await Promise.all(
      crowd.map(async (m, i) => {
        const steps: [() => Promise<ProbeReply>, (r: ProbeReply) => void][] = [
          [() => api('POST', `/api/likes/reviews/${reviewId}`, m), () => acked.likes.add(m.id)],
          [() => api('POST', `/api/follows/users/${author.id}`, m), () => acked.follows.add(m.id)],
          [
            () => api('POST', `/api/reviews/${reviewId}/comments`, m, { content: `comment ${i}` }),
            (r) => acked.comments.set(m.id, (r.json as { data: { id: string } }).data.id),
          ],
          [
            () => api('POST', `/api/messages/conversations/${chatId}/messages`, m, { content: `message ${i}` }),
            (r) => acked.messages.add((r.json as { data: { id: string } }).data.id),
          ],
        ];
        // Each member starts at another step, so every kind of write is in flight when the kill lands.
        for (const [send, record] of [...steps.slice(i % steps.length), ...steps.slice(0, i % steps.length)]) {
          const res = await send().catch(() => undefined);
          if (res && res.status >= 200 && res.status < 300) {
            record(res);
            note();
          }
        }
      }),
    );
    await (killing ?? kill());
    expect(acks).toBeGreaterThanOrEqual(total / 3);

    await start();
    // No waiting: the repair pass ran before the stack answered /health/ready.
    const view = ((await api('GET', `/api/reviews/${reviewId}`, author)).json as { data: { like_count: number; comment_count: number } }).data;
    const likers = ((await api('GET', `/api/likes/reviews/${reviewId}/users?limit=100`, author)).json as { meta: { total: number } }).meta.total;
    const comments = ((await api('GET', `/api/reviews/${reviewId}/comments?limit=100`, author)).json as { meta: { total: number } }).meta.total;
    const profile = async (m: Member) =>
      ((await api('GET', `/api/users/profile/${m.username}`, m)).json as { data: { followers_count: number; following_count: number } }).data;

    const lost: string[] = [];
    const wrong: string[] = [];
    for (const m of crowd) {
      const like = ((await api('GET', `/api/likes/reviews/${reviewId}/status`, m)).json as { data: { liked: boolean } }).data;
      if (acked.likes.has(m.id) && !like.liked) lost.push(`like of ${m.id}`);
      const follow = ((await api('GET', `/api/follows/status/${author.id}`, m)).json as { data: { isFollowing: boolean } }).data;
      if (acked.follows.has(m.id) && !follow.isFollowing) lost.push(`follow of ${m.id}`);
      const { following_count } = await profile(m);
      if (following_count !== (follow.isFollowing ? 1 : 0)) wrong.push(`following_count ${following_count} of ${m.id}, following: ${follow.isFollowing}`);
    }
    const commentRows = ((await api('GET', `/api/reviews/${reviewId}/comments?limit=100`, author)).json as { data: { id: string }[] }).data.map((c) => c.id);
    for (const [who, id] of acked.comments) if (!commentRows.includes(id)) lost.push(`comment ${id} of ${who}`);
    const messages = ((await api('GET', `/api/messages/conversations/${chatId}/messages?limit=100`, author)).json as { data: { id: string }[] }).data;
    for (const id of acked.messages) if (!messages.some((m) => m.id === id)) lost.push(`message ${id}`);
    const conversation = ((await api('GET', '/api/messages/conversations', author)).json as {
      data: { id: string; unread_count: number; last_message: { id: string } | null }[];
    }).data.find((c) => c.id === chatId);
    if (conversation?.last_message?.id !== messages.at(-1)?.id) wrong.push(`last message ${conversation?.last_message?.id}, newest ${messages.at(-1)?.id}`);
    if (conversation?.unread_count !== messages.length) wrong.push(`author's unread_count ${conversation?.unread_count} of ${messages.length} messages`);
    const followers = ((await api('GET', '/api/follows/followers?limit=100', author)).json as { meta: { total: number } }).meta.total;
    const { followers_count } = await profile(author);

    const rows = {
      new_follower: await ids(`/api/follows/followers?limit=100`, author),
      review_liked: await ids(`/api/likes/reviews/${reviewId}/users?limit=100`, author),
      comment: ((await api('GET', `/api/reviews/${reviewId}/comments?limit=100`, author)).json as { data: { userId: string }[] }).data
        .map((c) => c.userId)
        .sort(),
    };
    const notified = await notificationsSettled(author, rows);

    console.log(
      `crash-safety (${store.name}): ${acks}/${total} writes acknowledged before SIGKILL; after restart like_count ${view.like_count} / likers ${likers}, ` +
        `comment_count ${view.comment_count} / comments ${comments}, followers_count ${followers_count} / followers ${followers}, ` +
        `messages ${messages.length} (author's unread ${conversation?.unread_count}); ` +
        `lost: ${lost.length}, other counters wrong: ${wrong.length}; fixed by the repair pass at restart: ${repairs.join(', ') || 'nothing'}; ` +
        `notifications for follows / likes / comments: ${notified.new_follower.length}/${rows.new_follower.length}, ` +
        `${notified.review_liked.length}/${rows.review_liked.length}, ${notified.comment.length}/${rows.comment.length}`,
    );
    expect(notified).toEqual(rows);
    expect(lost).toEqual([]);
    expect(view.like_count).toBe(likers);
    expect(view.comment_count).toBe(comments);
    expect(followers_count).toBe(followers);
    expect(wrong).toEqual([]);
    expect(likers).toBeGreaterThanOrEqual(acked.likes.size);
    expect(await store.likesStored(dataDir, reviewId)).toBe(likers);
    expect(followers).toBeGreaterThanOrEqual(acked.follows.size);
  }, 90_000);
});
