import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Socket } from 'socket.io-client';
import { MessageView, NotificationView } from '@app/contracts';
import { ConfigError, loadConfig, PlatformConfig, userCardsCollection } from '@app/platform';
import { StoreReader } from './store-reader';
import { buildServer } from '@app/testing';
import { redisServerAvailable } from '@app/testing/engines';
import { messagesCollection } from '../../../services/messaging/src/messages/message.collection';
import { notificationsCollection } from '../../../services/notifications/src/notifications/notification.collection';
import { KillWatch, pairs } from '../distributed/kill-watch';
import { call, connect, Inbox, Member, register, Reply, sleep, until } from '../distributed/stack-client';
import { netnsProbe, Network, removeLeftovers } from './hosts';
import { MultiHostStack, postgresBinaries, StoreEngine } from './stack';

/**
 * Issue 29 §4: hosts, not processes. Three network namespaces joined by a bridge stand for three
 * machines: host 1 runs Redis (and PostgreSQL), host 2 the gateway and half of the service
 * replicas, host 3 the other half (placement in stack.ts). Whole hosts fail, not one process:
 *   (a) every process of host 3 is SIGKILLed while likes, messages and deletions flow;
 *   (b) host 3's link is down for 10 s: what is routed to it fails fast, it rejoins and catches up;
 *   (c) PostgreSQL on host 1 restarts under load: the services reconnect.
 * Each case compares what was acknowledged with what is stored and what was delivered.
 */

/**
 * THE switch. 'postgres' (PostgreSQL on host 1) is what this test is for, and needs the
 * PostgreSQL store adapter of issue 29 §1: with 'postgres' and no adapter, the suite fails at
 * once saying so. 'sqlite' runs cases (a) and (b) on SQLite files in the shared data folder
 * (namespaces isolate only the network, so every host opens the same files) and not case (c).
 */
const STORE = 'postgres' as StoreEngine;

const ROOT = join(__dirname, '../../..');
const CLAIM_IDLE_MS = 1_000;
/** The gateway's upstream time-out here (10 s by default): a cut-off service is answered 504 within it. */
const UPSTREAM_TIMEOUT_MS = 3_000;
/** A request slower than this hung: the upstream time-out plus room for a loaded two-core machine. */
const HANG_MS = UPSTREAM_TIMEOUT_MS + 2_500;
const CUT_MS = 10_000;
/** Most likes case (a) sends while it waits for the kill-watch to catch host 3 holding one. */
const MAX_LIKES = 300;
const START_TIMEOUT_MS = 240_000;
const PASSWORD = 'lamp-desk-battery-42';

/** One timed request of a load loop. */
interface Sample {
  route: string;
  status: number;
  startedAt: number;
  ms: number;
}

/** Sequential request loops, one per route, every request timed; a request that throws counts as status 0. */
class Load {
  readonly samples: Sample[] = [];
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  /** Calls `step(i)` for i = 0, 1, ... until stopped or until it returns undefined (nothing left to send). */
  run(route: string, pauseMs: number, step: (i: number) => Promise<Reply<unknown>> | undefined): void {
    this.loops.push(
      (async () => {
        for (let i = 0; !this.stopped; i++) {
          const startedAt = Date.now();
          const pending = step(i);
          if (!pending) return;
          const status = await pending.then((r) => r.status).catch(() => 0);
          this.samples.push({ route, status, startedAt, ms: Date.now() - startedAt });
          await sleep(pauseMs);
        }
      })(),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  of(route: string, from = 0, to = Infinity): Sample[] {
    return this.samples.filter((s) => s.route === route && s.startedAt >= from && s.startedAt + s.ms <= to);
  }

  slowest(): Sample | undefined {
    return [...this.samples].sort((a, b) => b.ms - a.ms)[0];
  }

  /** "route: n requests, statuses {200: n, ...}, slowest ms" per route. */
  summary(from = 0, to = Infinity): string {
    const routes = [...new Set(this.samples.map((s) => s.route))];
    return routes
      .map((route) => {
        const samples = this.of(route, from, to);
        const statuses: Record<number, number> = {};
        for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
        return `${route}: ${samples.length} (${JSON.stringify(statuses)}, slowest ${Math.max(0, ...samples.map((s) => s.ms))} ms)`;
      })
      .join('; ');
  }
}

/** Groups of the bus (per service, not the gateways' broadcast ones) that have not consumed or not acknowledged every entry. */
async function groupsBehind(url: string): Promise<string[]> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const behind: string[] = [];
    for (const stream of await client.keys('bus:*')) {
      if ((await client.type(stream)) !== 'stream') continue; // the groups' signs of life
      const info = Object.fromEntries(pairs((await client.xinfo('STREAM', stream)) as unknown[]));
      for (const fields of (await client.xinfo('GROUPS', stream)) as unknown[][]) {
        const group = Object.fromEntries(pairs(fields));
        if (String(group.name).startsWith('broadcast:')) continue;
        if (group['last-delivered-id'] !== info['last-generated-id'] || Number(group.pending) > 0) {
          behind.push(`${stream}/${String(group.name)}: delivered up to ${String(group['last-delivered-id'])} of ${String(info['last-generated-id'])}, ${String(group.pending)} pending`);
        }
      }
    }
    return behind;
  } finally {
    client.disconnect();
  }
}

/** Why this machine cannot run the suite, or undefined. */
function missingEngine(): string | undefined {
  const netns = netnsProbe();
  if (netns) return netns;
  if (!redisServerAvailable()) return 'redis-server not found (install redis-server)';
  if (STORE === 'postgres' && !postgresBinaries()) return 'PostgreSQL binaries not found under /usr/lib/postgresql (install postgresql)';
  return undefined;
}

/** Fails when this build's configuration refuses STORE=postgres: the adapter of issue 29 §1 is not in it. */
function assertPostgresAdapter(): void {
  try {
    loadConfig(PlatformConfig, 'multihost', { STORE: 'postgres', POSTGRES_URL: 'postgres://probe', JWT_SECRET: 'x'.repeat(32) });
  } catch (err) {
    if (err instanceof ConfigError && /STORE/.test(err.message)) {
      throw new Error(`multihost: STORE=postgres but this build has no PostgreSQL store adapter (issue 29 §1): ${err.message}`);
    }
    throw err;
  }
}

const missing = missingEngine();
// Locally a machine without root or redis-server skips with the reason; under CI=true it runs and fails.
const describeWithHosts = missing && process.env.CI !== 'true' ? describe.skip : describe;
if (missing && process.env.CI !== 'true') process.stderr.write(`multihost.spec: ${missing}, skipping\n`);
if (STORE !== 'postgres') {
  process.stderr.write('multihost.spec: STORE=sqlite: case (c), PostgreSQL restarted under load, needs STORE=postgres (the switch at the top of multihost.spec.ts)\n');
}

describeWithHosts(`three hosts in network namespaces (store: ${STORE})`, () => {
  const network = new Network(3);
  let stack: MultiHostStack;
  let dataDir = '';
  let gw = '';
  const stores = new Map<string, StoreReader>();
  const sockets: Socket[] = [];
  /** Load loops of the cases: stopped in afterAll too, so a failed case leaves none running. */
  const loads: Load[] = [];
  const tag = Date.now().toString(36);
  const log = (line: string) => process.stdout.write(`multihost: ${line}\n`);

  const store = async (service: string): Promise<StoreReader> => {
    if (!stores.has(service)) stores.set(service, await stack.openStore(service));
    return stores.get(service) as StoreReader;
  };
  const notifications = async () => (await store('notifications')).collection(notificationsCollection);
  const messages = async () => (await store('messaging')).collection(messagesCollection);

  /**
   * Members for a case, six at a time, straight to auth: setup is not what is measured, and on
   * PostgreSQL six concurrent registrations took 2-3.4 s each, past the gateway's time-out here.
   */
  const registerMany = async (prefix: string, count: number): Promise<Member[]> => {
    const auth = stack.serviceUrl('auth', 0);
    const members: Member[] = [];
    for (let i = 0; i < count; i += 6) {
      members.push(...(await Promise.all(Array.from({ length: Math.min(6, count - i) }, (_, k) => register(auth, `${prefix}${i + k}`, tag)))));
    }
    return members;
  };
  const postReview = async (author: Member, title: string): Promise<string> => {
    const res = await call<{ id: string }>(gw, 'POST', '/api/reviews', author.token, { title, content: `${title}: it does what it says, no more.` });
    expect(res.status).toBe(201);
    return res.body.data.id;
  };
  /** A conversation sender -> recipient, the recipient listening on a socket through the gateway. */
  const chat = async (sender: Member, recipient: Member): Promise<{ conversationId: string; inbox: Inbox }> => {
    // Messaging learns of both members from user.registered over the bus.
    const conversationId = await until(async () => {
      const res = await call<{ id: string }>(gw, 'POST', '/api/messages/conversations', sender.token, { memberIds: [recipient.id] });
      return res.status === 201 || res.status === 200 ? res.body.data.id : undefined;
    }, 'messaging to know both members');
    const inbox: Inbox = {};
    sockets.push(await connect(gw, recipient.token, inbox));
    return { conversationId, inbox };
  };
  /** What was acknowledged (201 with an id), stored and delivered on the recipient's socket, for one conversation. */
  const messageCounts = async (conversationId: string, acked: Map<string, string>, inbox: Inbox) => {
    const stored = await (await messages()).find({ conversation_id: conversationId });
    const storedPerContent = new Map<string, number>();
    for (const m of stored) storedPerContent.set(m.content, (storedPerContent.get(m.content) ?? 0) + 1);
    const delivered = new Map<string, number>();
    for (const m of (inbox['new-message'] ?? []) as MessageView[]) delivered.set(m.id, (delivered.get(m.id) ?? 0) + 1);
    const ackedIds = [...acked.values()];
    return {
      acked: acked.size,
      stored: stored.length,
      lost: ackedIds.filter((id) => !stored.some((m) => m._id === id)).length,
      storedTwice: [...storedPerContent.values()].filter((n) => n > 1).length,
      undelivered: ackedIds.filter((id) => !delivered.has(id)).length,
      deliveredTwice: [...delivered.values()].filter((n) => n > 1).length,
    };
  };
  /** review_liked notifications stored for these reviews, per "review/liker". */
  const likeNotifications = async (reviewIds: string[]): Promise<Map<string, number>> => {
    const rows = await (await notifications()).find({ type: 'review_liked', subject_id: { $in: reviewIds } });
    const per = new Map<string, number>();
    for (const n of rows) per.set(`${n.subject_id}/${n.actor_id}`, (per.get(`${n.subject_id}/${n.actor_id}`) ?? 0) + 1);
    return per;
  };
  const caughtUp = () =>
    until(async () => ((await groupsBehind(stack.redisUrl)).length === 0 ? true : undefined), 'every group of the bus to catch up', 60_000).catch(async (err: Error) => {
      throw new Error(`${err.message}:\n${(await groupsBehind(stack.redisUrl)).join('\n')}\n${stack.tail()}`);
    });

  beforeAll(async () => {
    if (missing) throw new Error(`multihost: ${missing}`);
    if (STORE === 'postgres') assertPostgresAdapter();
    const removed = removeLeftovers();
    if (removed.length > 0) log(`removed leftovers of an earlier run: ${removed.join(', ')}`);
    buildServer(ROOT);
    dataDir = mkdtempSync(join(tmpdir(), 'multihost-'));
    network.create();
    stack = new MultiHostStack(network, {
      store: STORE,
      dataDir,
      env: {
        BUS_CLAIM_IDLE_MS: String(CLAIM_IDLE_MS),
        UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
        RATE_LIMITS: 'off',
        // Setup registers dozens of members: cheap hashes keep it short.
        BCRYPT_ROUNDS: '4',
        LOG_LEVEL: 'warn',
        JWT_SECRET: 'multihost-test-secret-at-least-32-characters',
      },
    });
    const startedAt = Date.now();
    await stack.start().catch((err: Error) => {
      throw new Error(`${err.message}\n${stack.tail()}`);
    });
    gw = stack.gateway;
    log(`three hosts up in ${Date.now() - startedAt} ms: ${JSON.stringify(stack.pids())}`);
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(loads.map((l) => l.stop()));
    // A process that died on its own (not one the test killed) is named with its last lines.
    if (stack) for (const line of stack.crashed()) log(line);
    sockets.forEach((s) => s.close());
    await Promise.all([...stores.values()].map((s) => s.close().catch(() => undefined)));
    await network.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('(a) every process of host 3 SIGKILLed while likes, messages and deletions flow: nothing acknowledged lost, nothing duplicated', async () => {
    const h3 = stack.h3;
    const author = await register(gw, 'Author', tag);
    const likers = await registerMany('Liker', 36);
    // Likes go on past the 36 until the watch has caught host 3 holding one (a quick replica can ack every
    // burst: since each handler runs once per delivery, 24 more were once not enough on CI, nor 60 once):
    // 60 more registered now, and more as they run out, up to MAX_LIKES.
    const reserve = await registerMany('Reserve', 60);
    const liked: Member[] = [];
    const doomed = await registerMany('Doomed', 6);
    const [sender, recipient] = await registerMany('Chatter', 2);
    const reviewId = await postReview(author, 'Moka pot');
    // One like first, on another review, done before the author's socket listens: the like path's first
    // run (compiling, PostgreSQL's first statements) took longer than the link's timeout on a loaded CI
    // machine and the first burst's likes answered 504.
    const warmUp = await postReview(author, 'Warm-up');
    expect([200, 504]).toContain((await call(gw, 'POST', `/api/likes/reviews/${warmUp}`, recipient.token)).status);
    await until(async () => (await likeNotifications([warmUp])).size >= 1 || undefined, 'the warm-up like’s notification', 30_000);
    const authorInbox: Inbox = {};
    sockets.push(await connect(gw, author.token, authorInbox));
    const { conversationId, inbox } = await chat(sender, recipient);
    // Notifications both ways between the author and the doomed members, to be erased.
    for (const member of doomed) {
      expect((await call(gw, 'POST', `/api/follows/users/${author.id}`, member.token)).status).toBeLessThan(300);
      expect((await call(gw, 'POST', `/api/follows/users/${member.id}`, author.token)).status).toBeLessThan(300);
    }
    const doomedIds = doomed.map((m) => m.id);
    const about = async () => (await notifications()).count({ $or: [{ actor_id: { $in: doomedIds } }, { recipient_id: { $in: doomedIds } }] });
    await until(async () => (await about()) >= 2 * doomed.length || undefined, 'the notifications about the doomed members', 30_000);
    await caughtUp();

    // Host 3 goes down the moment its notifications replica holds review.liked entries it has not acknowledged.
    let killed: number[] = [];
    // Host 3's replica runs 30 ms between looks: under CI load, frozen nearly all the time, it seldom read at all.
    const watch = new KillWatch(stack.redisUrl, 'bus:review.liked', 'notifications', stack.pid('notifications', 0), () => (killed = network.killAll(h3)), 30);
    const likeStatus: number[] = [];
    // The other replica is frozen while the watch runs, so Redis cannot serve it every entry and leave host 3 none.
    const otherReplica = stack.pid('notifications', 1);
    const likes = (async () => {
      try {
        const queue = [...likers, ...reserve];
        for (let i = 0; i < likers.length || (watch.killedPid === undefined && i < MAX_LIKES); i += 6) {
          if (i >= queue.length) queue.push(...(await registerMany(`More${i}-`, 6)));
          if (i === 6) {
            process.kill(otherReplica, 'SIGSTOP');
            watch.start();
          }
          const burst = queue.slice(i, i + 6);
          liked.push(...burst);
          const replies = await Promise.all(burst.map((l) => call(gw, 'POST', `/api/likes/reviews/${reviewId}`, l.token)));
          likeStatus.push(...replies.map((r) => r.status));
        }
        await watch.result();
      } finally {
        process.kill(otherReplica, 'SIGCONT');
      }
    })();
    const acked = new Map<string, string>();
    const failedSends: number[] = [];
    const chatting = (async () => {
      for (let i = 0; i < 24; i++) {
        const content = `a-${tag}-${i}`;
        const res = await call<MessageView>(gw, 'POST', `/api/messages/conversations/${conversationId}/messages`, sender.token, { content }).catch(() => undefined);
        if (res?.status === 201) acked.set(content, res.body.data.id);
        else failedSends.push(res?.status ?? 0);
        await sleep(100);
      }
    })();
    const deletions = (async () => {
      const statuses: number[] = [];
      for (const member of doomed) {
        statuses.push((await call(gw, 'DELETE', '/api/users/me', member.token, { password: PASSWORD })).status);
        await sleep(200);
      }
      return statuses;
    })();
    const [, , deleted] = await Promise.all([likes, chatting, deletions]);
    const inFlight = await watch.result();
    expect(killed.length).toBeGreaterThan(0);
    expect(inFlight.length).toBeGreaterThan(0);

    // The host boots again: its processes start on their old ports, against the same Redis and store.
    const downAt = Date.now();
    await stack.startHost(h3);
    const bootMs = Date.now() - downAt;

    await until(async () => (await likeNotifications([reviewId])).size >= liked.length || undefined, `${liked.length} review_liked notifications`, 30_000);
    await until(async () => (await about()) === 0 || undefined, 'every erasure', 30_000);
    await caughtUp();
    // Any late redelivery lands before counting: a duplicate would show up now.
    await sleep(CLAIM_IDLE_MS * 3);
    await until(async () => (await messageCounts(conversationId, acked, inbox)).undelivered === 0 || undefined, 'every acknowledged message delivered', 15_000).catch(() => undefined);

    const perLike = await likeNotifications([reviewId]);
    const deliveredLikes = new Map<string, number>();
    for (const n of (authorInbox.notification ?? []) as NotificationView[]) if (n.type === 'review_liked') deliveredLikes.set(n.id, (deliveredLikes.get(n.id) ?? 0) + 1);
    const msg = await messageCounts(conversationId, acked, inbox);
    const counts = {
      killed: killed.length,
      heldUnacknowledged: inFlight.length,
      likesAcked: likeStatus.filter((s) => s === 200).length,
      likeNotifications: [...perLike.values()].reduce((a, b) => a + b, 0),
      likeNotificationsTwice: [...perLike.values()].filter((n) => n > 1).length,
      likeNotificationsDelivered: deliveredLikes.size,
      likeNotificationsDeliveredTwice: [...deliveredLikes.values()].filter((n) => n > 1).length,
      messages: msg,
      failedSends: failedSends.length,
      deletionsAcked: deleted.filter((s) => s === 200).length,
      leftAboutDeleted: await about(),
      host3BootMs: bootMs,
    };
    log(`(a) host 3 killed: ${JSON.stringify(counts)}`);

    // Likes and deletions go to replicas on host 2: every one acknowledged.
    expect(likeStatus).toEqual(liked.map(() => 200));
    expect(deleted).toEqual(doomed.map(() => 200));
    // Every like is one notification, stored once and delivered once, the ones host 3 held included.
    expect([...perLike.keys()].sort()).toEqual(liked.map((l) => `${reviewId}/${l.id}`).sort());
    expect(counts.likeNotificationsTwice).toBe(0);
    expect(counts.likeNotificationsDelivered).toBe(liked.length);
    expect(counts.likeNotificationsDeliveredTwice).toBe(0);
    // Every acknowledged message is stored once and reached the recipient once.
    expect(failedSends).toEqual([]);
    expect(msg).toMatchObject({ acked: 24, stored: 24, lost: 0, storedTwice: 0, undelivered: 0, deliveredTwice: 0 });
    // Nothing of the deleted members is left in notifications, whichever host held their erasure.
    expect(counts.leftAboutDeleted).toBe(0);
    for (const member of doomed) expect((await call(gw, 'GET', '/api/auth/me', member.token)).status).toBe(401);
  }, 240_000);

  it('(b) host 3 cut off for 10 s: what is routed to it fails fast with 503/504, never hangs; it rejoins and catches up', async () => {
    const h3 = stack.h3;
    const authors = await registerMany('Writer', 4);
    const likers = await registerMany('Fan', 12);
    const [sender, recipient] = await registerMany('Talker', 2);
    const reviewIds = await Promise.all(authors.map((a, i) => postReview(a, `Kettle ${i}`)));
    const { conversationId, inbox } = await chat(sender, recipient);
    await caughtUp();

    const load = new Load();
    loads.push(load);
    const likesAcked: string[] = [];
    const acked = new Map<string, string>();
    // Host 2's routes: likes (reviews) and messages (messaging). Host 3's: notifications and squads.
    const pairsToLike = reviewIds.flatMap((reviewId) => likers.map((liker) => ({ reviewId, liker })));
    load.run('likes (host 2)', 150, (i) => {
      const next = pairsToLike[i];
      if (!next) return undefined;
      return call(gw, 'POST', `/api/likes/reviews/${next.reviewId}`, next.liker.token).then((r) => {
        if (r.status === 200) likesAcked.push(`${next.reviewId}/${next.liker.id}`);
        return r;
      });
    });
    load.run('messages (host 2)', 150, (i) => {
      const content = `b-${tag}-${i}`;
      return call<MessageView>(gw, 'POST', `/api/messages/conversations/${conversationId}/messages`, sender.token, { content }).then((r) => {
        if (r.status === 201) acked.set(content, r.body.data.id);
        return r;
      });
    });
    load.run('notifications (host 3)', 100, () => call(gw, 'GET', '/api/notifications?limit=5', authors[0].token));
    load.run('squads (host 3)', 100, () => call(gw, 'GET', '/api/squads/discover', likers[0].token));

    await sleep(2_000);
    network.cut(h3);
    // Taken once the link is down: a request that began before (in the same millisecond, or while
    // `ip` ran) may still have been answered by host 3.
    const cutAt = Date.now();
    // A member joins while host 3 is away: squads, whose only replica is on host 3, must learn of them later.
    const newcomer = await register(gw, 'Newcomer', tag);
    await sleep(CUT_MS - (Date.now() - cutAt));
    network.restore(h3);
    const restoredAt = Date.now();
    // Load goes on until host 3's routes answer again.
    const rejoined = await until(
      () => load.samples.find((s) => s.route.endsWith('(host 3)') && s.startedAt >= restoredAt && s.status === 200),
      'a route to host 3 answering again',
      60_000,
    );
    await sleep(1_000);
    await load.stop();
    const rejoinMs = rejoined.startedAt + rejoined.ms - restoredAt;

    await caughtUp();
    const squadsKnowNewcomer = await until(async () => (await (await store('squads')).collection(userCardsCollection).findById(newcomer.id)) ?? undefined, 'squads to know the newcomer', 30_000);
    await until(async () => (await likeNotifications(reviewIds)).size >= likesAcked.length || undefined, 'a notification per acknowledged like', 30_000);
    await until(async () => (await messageCounts(conversationId, acked, inbox)).undelivered === 0 || undefined, 'every acknowledged message delivered', 15_000).catch(() => undefined);
    await sleep(CLAIM_IDLE_MS * 3);

    const during = (route: string) => load.of(route, cutAt, restoredAt);
    const cutOff = [...during('notifications (host 3)'), ...during('squads (host 3)')];
    const perLike = await likeNotifications(reviewIds);
    const msg = await messageCounts(conversationId, acked, inbox);
    const slowest = load.slowest();
    log(`(b) before the cut: ${load.summary(0, cutAt)}`);
    log(`(b) during the 10 s cut: ${load.summary(cutAt, restoredAt)}`);
    log(`(b) after: ${load.summary(restoredAt)}; host 3 answered again ${rejoinMs} ms after the link came back`);
    log(`(b) likes acknowledged ${likesAcked.length}, notifications ${perLike.size}; messages ${JSON.stringify(msg)}; slowest request ${slowest?.ms} ms (${slowest?.route})`);

    // Never a hang: every request of every route answered within the upstream time-out and some slack.
    expect(load.samples.filter((s) => s.ms > HANG_MS)).toEqual([]);
    // While cut off, host 3's routes failed, fast, with 503 or 504, never another status.
    // (Each takes the 3 s time-out, so a 10 s cut holds two or three whole requests per route.)
    for (const route of ['notifications (host 3)', 'squads (host 3)']) expect(during(route).length).toBeGreaterThan(0);
    expect(cutOff.filter((s) => s.status !== 503 && s.status !== 504)).toEqual([]);
    // Host 2's routes went on working.
    for (const route of ['likes (host 2)', 'messages (host 2)']) {
      expect(during(route).length).toBeGreaterThan(0);
      expect(load.of(route).filter((s) => s.status !== 200 && s.status !== 201)).toEqual([]);
    }
    // It rejoined: the events it missed were consumed (squads has no other replica), nothing lost or doubled.
    expect(squadsKnowNewcomer).toMatchObject({ _id: newcomer.id });
    expect([...perLike.keys()].sort()).toEqual([...likesAcked].sort());
    expect([...perLike.values()].filter((n) => n > 1)).toEqual([]);
    expect(msg).toMatchObject({ lost: 0, storedTwice: 0, undelivered: 0, deliveredTwice: 0 });
    expect(msg.stored).toBe(msg.acked);
    expect(await groupsBehind(stack.redisUrl)).toEqual([]);
  }, 240_000);

  if (STORE === 'postgres') {
    it('(c) PostgreSQL on host 1 restarted under load: the services reconnect, nothing acknowledged is lost', async () => {
      const authors = await registerMany('Critic', 4);
      const likers = await registerMany('Reader', 12);
      const [sender, recipient] = await registerMany('Caller', 2);
      const reviewIds = await Promise.all(authors.map((a, i) => postReview(a, `Grinder ${i}`)));
      const { conversationId, inbox } = await chat(sender, recipient);
      await caughtUp();
      const pidsBefore = stack.pids();

      const load = new Load();
      loads.push(load);
      // A like is a toggle and a message has no idempotency key, so nothing is retried: a request
      // that failed may or may not have been carried out, and is counted apart (ambiguous).
      const likesAcked: string[] = [];
      const likesFailed: string[] = [];
      const acked = new Map<string, string>();
      const sendsFailed: string[] = [];
      const pairsToLike = reviewIds.flatMap((reviewId) => likers.map((liker) => ({ reviewId, liker })));
      load.run('likes', 350, (i) => {
        const next = pairsToLike[i];
        if (!next) return undefined;
        return call(gw, 'POST', `/api/likes/reviews/${next.reviewId}`, next.liker.token).then(
          (r) => {
            (r.status === 200 ? likesAcked : likesFailed).push(`${next.reviewId}/${next.liker.id}`);
            return r;
          },
          (err: unknown) => {
            likesFailed.push(`${next.reviewId}/${next.liker.id}`);
            throw err;
          },
        );
      });
      load.run('messages', 200, (i) => {
        const content = `c-${tag}-${i}`;
        return call<MessageView>(gw, 'POST', `/api/messages/conversations/${conversationId}/messages`, sender.token, { content }).then(
          (r) => {
            if (r.status === 201) acked.set(content, r.body.data.id);
            else sendsFailed.push(content);
            return r;
          },
          (err: unknown) => {
            sendsFailed.push(content);
            throw err;
          },
        );
      });
      load.run('notifications', 200, () => call(gw, 'GET', '/api/notifications?limit=5', authors[0].token));

      await sleep(2_000);
      const stoppedAt = Date.now();
      const downMs = await stack.restartPostgres(3_000);
      const upAt = Date.now();
      const answered = (route: string) => load.samples.some((s) => s.route === route && s.startedAt >= upAt && s.status < 300);
      await until(() => ['likes', 'messages', 'notifications'].every(answered) || undefined, 'likes, messages and notifications answered again after the restart', 60_000).catch(
        (err: Error) => {
          throw new Error(`${err.message}\nsince the restart: ${load.summary(upAt)}\n${stack.tail()}`);
        },
      );
      const recoveredMs = Math.max(...['likes', 'messages', 'notifications'].map((route) => load.samples.find((s) => s.route === route && s.startedAt >= upAt && s.status < 300)!.startedAt)) - upAt;
      await sleep(2_000);
      await load.stop();

      await caughtUp();
      await until(async () => (await likeNotifications(reviewIds)).size >= likesAcked.length || undefined, 'a notification per acknowledged like', 30_000);
      await until(async () => (await messageCounts(conversationId, acked, inbox)).undelivered === 0 || undefined, 'every acknowledged message delivered', 15_000).catch(() => undefined);
      await sleep(CLAIM_IDLE_MS * 3);
      const perLike = await likeNotifications(reviewIds);
      const msg = await messageCounts(conversationId, acked, inbox);
      const storedContents = (await (await messages()).find({ conversation_id: conversationId })).map((m) => m.content);
      const failed = load.samples.filter((s) => s.status >= 300 || s.status === 0);
      log(`(c) PostgreSQL down ${downMs} ms, every route answering again ${recoveredMs} ms after it was back`);
      log(`(c) before: ${load.summary(0, stoppedAt)}; from the stop on: ${load.summary(stoppedAt)}`);
      log(
        `(c) likes acknowledged ${likesAcked.length}, failed ${likesFailed.length}, notifications ${perLike.size}; messages ${JSON.stringify(msg)}, failed ${sendsFailed.length}; pids unchanged: ${JSON.stringify(stack.pids()) === JSON.stringify(pidsBefore)}`,
      );

      // The services reconnected: the same processes, none crashed and restarted.
      expect(stack.pids()).toEqual(pidsBefore);
      expect(load.samples.filter((s) => s.ms > HANG_MS)).toEqual([]);
      // A request the store could not serve is refused as unavailable, never a 500.
      expect(failed.filter((s) => s.status !== 503 && s.status !== 504)).toEqual([]);
      // Every acknowledged like is one notification; one that is not acknowledged was a failed request.
      for (const like of likesAcked) expect({ like, notifications: perLike.get(like) ?? 0 }).toEqual({ like, notifications: 1 });
      expect([...perLike.keys()].filter((like) => !likesAcked.includes(like) && !likesFailed.includes(like))).toEqual([]);
      expect([...perLike.values()].filter((n) => n > 1)).toEqual([]);
      // Every acknowledged message is stored once and delivered once; a stored one not acknowledged was a failed send.
      expect(msg).toMatchObject({ lost: 0, storedTwice: 0, undelivered: 0, deliveredTwice: 0 });
      expect(storedContents.filter((content) => !acked.has(content) && !sendsFailed.includes(content))).toEqual([]);
      expect(await groupsBehind(stack.redisUrl)).toEqual([]);
    }, 240_000);
  }
});
