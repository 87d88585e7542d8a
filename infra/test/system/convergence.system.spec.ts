import fc from 'fast-check';
import request from 'supertest';
import { AnyEventEnvelope } from '@app/contracts';
import { BusTransport, SubscribeOptions } from '@app/bus';
import { describeWithRedis, RedisServerHandle, startRedisServer } from '@app/testing/engines';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Issue 46: convergence as a property. Random sequences of member actions run through the
 * gateway while the bus delays, fails (a failed delivery comes again: in place on the in-process
 * bus, after the claim window and behind later events on Redis Streams, which reorders) and
 * redelivers events. Once the bus has settled, every derived view checked here equals a
 * recomputation from the owning services' own data (social's follows, requests, mutes, blocks,
 * privacy and names; reviews' rows, likes and saves; squads' members and requests) and from what
 * the actions did:
 * - each member's feed, and its cards' like counts, like and save marks, texts and author names;
 * - each member's saved reviews (what they may still see of what they saved), and the reviews tab of
 *   every member's profile as each other member sees it;
 * - each profile's review, follower and following counts and squad count;
 * - the squad's members (names, no deleted account) and its week's review count;
 * - each member's notifications: the unread count, the names of who caused them, none across a
 *   block, none from a deleted account, one "hidden" notice per hidden review, one "approved" per
 *   approved join, and the admin's "wants to join" exactly the pending requests.
 * A bounded number of runs, not a timed test.
 */

const MEMBERS = 4;
const RUNS = Number(process.env.CONVERGENCE_RUNS) || 20;

interface Faults {
  rng: () => number;
  failed: Set<string>;
}

/** The faults of the current run (a run sets its own seeded generator). */
const faults: Faults = { rng: () => 1, failed: new Set() };

/** Delays, fails once and redelivers events on their way to each service's consumers. */
function faulty(inner: BusTransport): BusTransport {
  const hit = (p: number) => faults.rng() < p;
  const disturb = async (event: AnyEventEnvelope) => {
    if (hit(0.3)) await new Promise((r) => setTimeout(r, Math.floor(faults.rng() * 15)));
    if (!faults.failed.has(event.id) && hit(0.08)) {
      faults.failed.add(event.id);
      throw new Error(`injected failure of ${event.type}`);
    }
  };
  return {
    get engine() {
      return inner.engine;
    },
    connect: () => inner.connect(),
    publish: (event) => inner.publish(event),
    handledSoFar: inner.handledSoFar && (() => inner.handledSoFar!()),
    untilHandled: inner.untilHandled && ((event, ms) => inner.untilHandled!(event, ms)),
    isHealthy: () => inner.isHealthy(),
    close: () => inner.close(),
    subscribe: (options: SubscribeOptions) =>
      inner.subscribe({
        ...options,
        handler: async (event) => {
          await disturb(event);
          await options.handler(event);
          if (hit(0.1)) await options.handler(event); // the same envelope once more
        },
        ...(options.handleBatch && {
          handleBatch: async (events: AnyEventEnvelope[]) => {
            for (const event of events) await disturb(event);
            await options.handleBatch!(events);
          },
        }),
      }),
  };
}

interface Member {
  id: string;
  username: string;
  token: string;
}

interface TrackedReview {
  id: string;
  /** The author's place in the cast, and their account (another one holds that place after a deletion). */
  author: number;
  authorId: string;
  created_at: string;
  content: string;
  deleted: boolean;
  hidden: boolean;
  likers: Set<number>;
  savers: Set<number>;
}

interface Card {
  id: string;
  content: string;
  like_count: number;
  liked: boolean;
  saved: boolean;
  user: { id: string; display_name: string };
}

interface Notice {
  type: string;
  is_read: boolean;
  related_user: { id: string; display_name: string } | null;
}

type Action =
  | { kind: 'follow' | 'unfollow' | 'approve' | 'mute' | 'unmute' | 'block' | 'unblock'; by: number; other: number }
  | { kind: 'privacy'; by: number; restricted: boolean }
  | { kind: 'rename'; by: number; name: number }
  | { kind: 'join' | 'leave' | 'post' | 'read' | 'read-notifications' | 'delete-account'; by: number }
  | { kind: 'edit' | 'delete' | 'like' | 'save' | 'hide' | 'unhide'; by: number; review: number };

const member = fc.integer({ min: 0, max: MEMBERS - 1 });
const pair = fc.tuple(member, member).filter(([a, b]) => a !== b);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: pair.chain(([by, other]) => fc.constantFrom('follow', 'unfollow', 'approve', 'mute', 'unmute', 'block', 'unblock').map((kind) => ({ kind, by, other }) as Action)) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('privacy' as const), by: member, restricted: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), by: member, name: fc.nat(99) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('join' as const, 'leave' as const), by: member }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('post' as const), by: member }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom('edit' as const, 'delete' as const, 'like' as const, 'save' as const, 'hide' as const, 'unhide' as const),
      by: member,
      review: fc.nat(1000),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('read' as const, 'read-notifications' as const), by: member }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-account' as const), by: member }) },
);
/** Steps of one to three actions sent together: members act at the same time. */
const scenario = fc.record({ seed: fc.integer(), steps: fc.array(fc.array(action, { minLength: 1, maxLength: 3 }), { minLength: 4, maxLength: 12 }) });
/**
 * Member 0 posts, member 1 saves it and likes it, member 0 reads: a saved review still to be seen at
 * the end. Member 2 posts a review the moderator hides: a hidden review's notice to compare.
 */
const SAVED_EXAMPLE: { seed: number; steps: Action[][] } = {
  seed: 1,
  steps: [
    [{ kind: 'post', by: 0 }],
    [{ kind: 'save', by: 1, review: 0 }],
    [{ kind: 'like', by: 1, review: 0 }],
    [{ kind: 'read', by: 0 }],
    [{ kind: 'post', by: 2 }],
    [{ kind: 'hide', by: 0, review: 1 }],
  ],
};

function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

const PASSWORD = 'lamp-desk-battery-42';

function convergence(name: string, start: () => Promise<EmbeddedStack>, stop: () => Promise<void> = async () => undefined) {
  describe(name, () => {
    let stack: EmbeddedStack;
    let admin: Member;
    let members: Member[];
    let productId: string;
    let squadId: string;
    /** What the checks compared over all runs, so none of them compared nothing. */
    const compared = { squadMembers: 0, saved: 0, hiddenNotices: 0, approvedNotices: 0, deletedAccounts: 0 };
    const reviews: TrackedReview[] = [];
    /** Per account: its reviews a moderator hid at least once, and its approved join requests. */
    const hiddenEver = new Map<string, Set<string>>();
    const approvals = new Map<string, number>();

    const api = () => request(stack.url);
    const as = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
    const register = async (name: string): Promise<Member> => {
      const res = await api().post('/api/auth/register').send({ email: `${name}-${Date.now()}-${Math.random()}@example.com`, name, password: PASSWORD });
      expect(res.status).toBe(201);
      return { id: res.body.data.user.id, username: res.body.data.user.username, token: res.body.data.token };
    };
    const addTo = <K, V>(map: Map<K, Set<V>>, key: K, value: V) => map.set(key, (map.get(key) ?? new Set<V>()).add(value));

    beforeAll(async () => {
      stack = await start();
      admin = await register('Admin'); // the first account is the admin: it hides reviews
      members = [];
      for (let i = 0; i < MEMBERS; i++) members.push(await register(`Member${i}`));
      await stack.settle();
      productId = (await api().post('/api/products').set(as(admin)).send({ name: 'Kettle', category: 'Kitchen', price: 25 })).body.data.id;
      const squad = await api().post('/api/squads').set(as(admin)).send({ name: 'Kettle fans' });
      expect(squad.status).toBe(201);
      squadId = squad.body.data.id;
    }, 60_000);

    afterAll(async () => {
      faults.rng = () => 1;
      await stack?.close();
      await stop();
    });

    const ok = (status: number) => status >= 200 && status < 300;

    async function act(a: Action): Promise<void> {
      const by = members[a.by];
      switch (a.kind) {
        case 'follow':
          await api().post(`/api/follows/users/${members[a.other].id}`).set(as(by));
          return;
        case 'unfollow':
          await api().delete(`/api/follows/users/${members[a.other].id}`).set(as(by));
          return;
        case 'approve':
          await api().post(`/api/follows/requests/${members[a.other].id}/accept`).set(as(by));
          return;
        case 'mute':
        case 'block':
          await api().post(`/api/users/${members[a.other].id}/${a.kind}`).set(as(by));
          return;
        case 'unmute':
        case 'unblock':
          await api().delete(`/api/users/${members[a.other].id}/${a.kind.slice(2)}`).set(as(by));
          return;
        case 'privacy':
          await api().put('/api/users/settings').set(as(by)).send({ privacy_profile: a.restricted ? 'private' : 'public' });
          return;
        case 'join': {
          // Asked, then approved by the squad's creator (the admin).
          const asked = await api().post(`/api/squads/${squadId}/request-join`).set(as(by)).send({});
          if (!ok(asked.status)) return;
          const approved = await api().post(`/api/squads/${squadId}/join-requests/${asked.body.data.id}`).set(as(admin)).send({ action: 'approve' });
          if (ok(approved.status)) approvals.set(by.id, (approvals.get(by.id) ?? 0) + 1);
          return;
        }
        case 'leave':
          await api().post(`/api/squads/${squadId}/leave`).set(as(by));
          return;
        case 'rename':
          await api().put('/api/users/profile').set(as(by)).send({ display_name: `Member ${a.by} v${a.name}` });
          return;
        case 'post': {
          const content = `Review by ${a.by}`;
          const res = await api().post('/api/reviews').set(as(by)).send({ product_id: productId, rating: 4, content });
          if (res.status === 409) {
            // One review per product and member: another product for the next one.
            productId = (await api().post('/api/products').set(as(admin)).send({ name: `Kettle ${reviews.length}`, category: 'Kitchen', price: 25 })).body.data.id;
            return act(a);
          }
          expect(res.status).toBe(201);
          reviews.push({ id: res.body.data.id, author: a.by, authorId: by.id, created_at: res.body.data.created_at, content, deleted: false, hidden: false, likers: new Set(), savers: new Set() });
          return;
        }
        case 'read':
          await api().get('/api/feed').set(as(by));
          return;
        case 'read-notifications':
          await api().put('/api/notifications/mark-all-read').set(as(by));
          return;
        case 'delete-account':
          return deleteAccount(a.by);
      }
      if (reviews.length === 0) return;
      const review = reviews[a.review % reviews.length];
      const author = members[review.author];
      switch (a.kind) {
        case 'edit': {
          const content = `Edited ${a.review}`;
          if (ok((await api().put(`/api/reviews/${review.id}`).set(as(author)).send({ content })).status)) review.content = content;
          return;
        }
        case 'delete':
          if (ok((await api().delete(`/api/reviews/${review.id}`).set(as(author))).status)) review.deleted = true;
          return;
        case 'hide':
          if (ok((await api().post(`/api/moderation/reviews/${review.id}/hide`).set(as(admin)).send({ reason: 'Spam' })).status)) {
            review.hidden = true;
            addTo(hiddenEver, review.authorId, review.id);
          }
          return;
        case 'unhide':
          if (ok((await api().post(`/api/moderation/reviews/${review.id}/unhide`).set(as(admin)).send({ reason: 'Fine' })).status)) review.hidden = false;
          return;
        case 'save': {
          const saved = review.savers.has(a.by);
          const res = saved ? await api().delete(`/api/saved/reviews/${review.id}`).set(as(by)) : await api().post(`/api/saved/reviews/${review.id}`).set(as(by));
          if (!ok(res.status)) return;
          if (saved) review.savers.delete(a.by);
          else review.savers.add(a.by);
          return;
        }
        case 'like': {
          const res = await api().post(`/api/likes/reviews/${review.id}`).set(as(by));
          if (!ok(res.status)) return;
          if (res.body.data.liked) review.likers.add(a.by);
          else review.likers.delete(a.by);
          return;
        }
      }
    }

    /** The member leaves with what they wrote, liked and saved; a new account takes their place in the cast. */
    async function deleteAccount(i: number): Promise<void> {
      const res = await api().delete('/api/users/me').set(as(members[i])).send({ password: PASSWORD });
      expect(res.status).toBe(200);
      for (const review of reviews) {
        if (review.author === i) review.deleted = true;
        review.likers.delete(i);
        review.savers.delete(i);
      }
      members[i] = await register(`Member${i}`);
      compared.deletedAccounts += 1;
    }

    const ids = async (m: Member, path: string): Promise<Set<string>> => {
      const res = await api().get(`${path}${path.includes('?') ? '&' : '?'}limit=100`).set(as(m));
      expect(res.status).toBe(200);
      return new Set((res.body.data as { id: string }[]).map((row) => row.id));
    };

    /** All of a member's notifications (the list pages by 50 at most) and the unread counts the list and the badge say. */
    const notices = async (m: Member) => {
      const all: Notice[] = [];
      let listed = 0;
      for (let page = 1; ; page++) {
        const res = await api().get(`/api/notifications?page=${page}&limit=50`).set(as(m));
        expect(res.status).toBe(200);
        all.push(...(res.body.data as Notice[]));
        listed = res.body.meta.unread_count;
        if (page >= res.body.meta.totalPages) break;
      }
      const badge = await api().get('/api/notifications/unread-count').set(as(m));
      expect(badge.status).toBe(200);
      return { all, listed, badge: badge.body.data.unread_count as number };
    };

    /** Every derived view checked against the owners' data; the differences, empty when all agree. */
    async function differences(): Promise<string[]> {
      const found: string[] = [];
      const profiles = await Promise.all(
        members.map(async (m) => {
          const res = await api().get(`/api/users/profile/${m.username}`).set(as(m));
          expect(res.status).toBe(200);
          return res.body.data as { display_name: string; reviews_count: number; followers_count: number; following_count: number; privacy_profile: string };
        }),
      );
      const names = profiles.map((p) => p.display_name);
      const graph = await Promise.all(
        members.map(async (m) => ({
          following: await ids(m, '/api/follows/following'),
          followers: await ids(m, '/api/follows/followers'),
          muted: await ids(m, '/api/users/mutes'),
          blocked: await ids(m, '/api/users/blocked'),
        })),
      );
      const index = new Map(members.map((m, i) => [m.id, i]));
      const blockedEither = (a: number, b: number) => graph[a].blocked.has(members[b].id) || graph[b].blocked.has(members[a].id);
      const follows = (a: number, b: number) => graph[a].following.has(members[b].id);
      /** GET /reviews/:id's rule: no block either way, and a private author followed. */
      const canSee = (i: number, j: number) => i === j || (!blockedEither(i, j) && (profiles[j].privacy_profile === 'public' || follows(i, j)));
      /** As lists built from other rows (saved items) apply it: no mute either. */
      const maySee = (i: number, r: TrackedReview) => r.author === i || (canSee(i, r.author) && !graph[i].muted.has(members[r.author].id));
      const live = reviews.filter((r) => !r.deleted && !r.hidden);

      for (const [i, m] of members.entries()) {
        const expected = live
          .filter((r) => r.author === i || (follows(i, r.author) && !graph[i].muted.has(members[r.author].id) && !blockedEither(i, r.author)))
          .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id))
          .slice(0, 100);
        const res = await api().get('/api/feed?limit=100').set(as(m));
        expect(res.status).toBe(200);
        const cards = res.body.data as Card[];
        const feed = cards.map((c) => c.id);
        if (JSON.stringify(feed) !== JSON.stringify(expected.map((r) => r.id))) {
          found.push(`feed of member ${i}: ${JSON.stringify(feed)} instead of ${JSON.stringify(expected.map((r) => `${r.id} by ${r.author}`))}`);
        }
        for (const card of cards) {
          const review = reviews.find((r) => r.id === card.id);
          if (!review) continue;
          if (card.like_count !== review.likers.size || card.liked !== review.likers.has(i) || card.saved !== review.savers.has(i)) {
            found.push(`card ${card.id} for member ${i}: ${card.like_count} likes, liked ${card.liked}, saved ${card.saved}; the rows say ${review.likers.size}, ${review.likers.has(i)}, ${review.savers.has(i)}`);
          }
          if (card.content !== review.content) found.push(`card ${card.id} for member ${i}: "${card.content}", last written "${review.content}"`);
          if (card.user.display_name !== names[review.author]) {
            found.push(`card ${card.id} for member ${i}: author named ${card.user.display_name}, social says ${names[review.author]}`);
          }
        }
        // Each member's reviews tab as this one sees it (reviews' copies of social's privacy, follows and blocks).
        for (const j of members.keys()) {
          const tab = await api().get(`/api/reviews?userId=${members[j].id}&limit=100`).set(as(m));
          expect(tab.status).toBe(200);
          const shown = canSee(i, j) ? live.filter((r) => r.author === j).map((r) => r.id).sort() : [];
          const listed = (tab.body.data as { id: string }[]).map((r) => r.id).sort();
          if (JSON.stringify(listed) !== JSON.stringify(shown) || tab.body.meta.total !== shown.length) {
            found.push(`reviews of member ${j} seen by ${i}: ${JSON.stringify(listed)} (total ${tab.body.meta.total}) instead of ${JSON.stringify(shown)}`);
          }
        }
        // Saved reviews: what the member saved and may still see, each once, and a total that counts only those.
        const saved = await api().get('/api/saved?type=reviews&limit=100').set(as(m));
        expect(saved.status).toBe(200);
        const keep = live.filter((r) => r.savers.has(i) && maySee(i, r)).map((r) => r.id).sort();
        const got = (saved.body.data as { id: string }[]).map((r) => r.id).sort();
        compared.saved += keep.length;
        if (JSON.stringify(got) !== JSON.stringify(keep) || saved.body.meta.total !== keep.length) {
          found.push(`saved reviews of member ${i}: ${JSON.stringify(got)} (total ${saved.body.meta.total}) instead of ${JSON.stringify(keep)}`);
        }
      }

      const squad = await api().get(`/api/squads/${squadId}`).set(as(admin));
      expect(squad.status).toBe(200);
      const inSquad = squad.body.data.members as { id: string; display_name: string; joined_at: string }[];
      for (const [i, m] of members.entries()) {
        const p = profiles[i];
        // A hidden review leaves its author's count as a deleted one does (issue 43 §2).
        const shown = live.filter((r) => r.author === i).length;
        if (p.reviews_count !== shown) found.push(`profile of member ${i}: ${p.reviews_count} reviews, ${shown} shown`);
        if (p.followers_count !== graph[i].followers.size || p.following_count !== graph[i].following.size) {
          found.push(`profile of member ${i}: ${p.followers_count} followers, ${p.following_count} following; the lists hold ${graph[i].followers.size}, ${graph[i].following.size}`);
        }
        // Social's squad count (from squads' events) against the member's squads in squads.
        const [stats, mine] = await Promise.all([api().get('/api/users/stats').set(as(m)), api().get('/api/squads/my-squads').set(as(m))]);
        expect([stats.status, mine.status]).toEqual([200, 200]);
        if (stats.body.data.squadsCount !== mine.body.meta.total) found.push(`stats of member ${i}: ${stats.body.data.squadsCount} squads, squads says ${mine.body.meta.total}`);
        if (mine.body.meta.total !== (inSquad.some((s) => s.id === m.id) ? 1 : 0)) found.push(`my-squads of member ${i}: ${mine.body.meta.total}, the squad's members say otherwise`);
      }

      // The squad: its members' names (squads' cards) as social says, no deleted account, and its week's reviews
      // (from reviews' events) those of its members written since they joined and still shown.
      for (const row of inSquad) {
        if (row.id === admin.id) continue;
        const i = index.get(row.id);
        if (i === undefined) found.push(`squad member ${row.id}: a deleted account`);
        else if (row.display_name !== names[i]) found.push(`squad member ${i}: named ${row.display_name}, social says ${names[i]}`);
        compared.squadMembers += 1;
      }
      const joinedAt = new Map(inSquad.map((row) => [row.id, row.joined_at]));
      const weekReviews = live.filter((r) => (joinedAt.get(members[r.author].id) ?? '~') <= r.created_at).length;
      if (squad.body.data.week.reviews !== weekReviews) found.push(`squad week: ${squad.body.data.week.reviews} reviews, ${weekReviews} written by its members`);

      // Notifications: the counts agree, every name is social's, none across a block or from a deleted account,
      // one notice per hidden review and per approved join, and the admin's join requests are the pending ones.
      for (const [i, m] of [...members.entries(), [-1, admin] as const]) {
        const { all, listed, badge } = await notices(m);
        const unread = all.filter((n) => !n.is_read).length;
        if (listed !== unread || badge !== unread) found.push(`notifications of ${i}: ${unread} unread listed, the list says ${listed}, the badge ${badge}`);
        for (const n of all) {
          if (n.type === 'review_hidden' || n.type === 'comment_hidden') continue;
          const j = n.related_user ? index.get(n.related_user.id) : undefined;
          if (!n.related_user || (j === undefined && n.related_user.id !== admin.id)) found.push(`notification ${n.type} of ${i}: from ${n.related_user?.id ?? 'nobody'}, not a member`);
          else if (j !== undefined && n.related_user.display_name !== names[j]) found.push(`notification ${n.type} of ${i}: names ${n.related_user.display_name}, social says ${names[j]}`);
          else if (j !== undefined && i >= 0 && blockedEither(i, j)) found.push(`notification ${n.type} of ${i}: from ${j}, across a block`);
        }
        const count = (type: string) => all.filter((n) => n.type === type).length;
        const hidden = hiddenEver.get(m.id)?.size ?? 0;
        compared.hiddenNotices += hidden;
        if (count('review_hidden') !== hidden) found.push(`notifications of ${i}: ${count('review_hidden')} reviews hidden, the moderator hid ${hidden}`);
        const approved = approvals.get(m.id) ?? 0;
        compared.approvedNotices += approved;
        if (count('squad_join_approved') !== approved) found.push(`notifications of ${i}: ${count('squad_join_approved')} joins approved, ${approved} were`);
        if (m === admin) {
          const pending = await api().get(`/api/squads/${squadId}/join-requests`).set(as(admin));
          expect(pending.status).toBe(200);
          if (count('squad_join_request') !== pending.body.meta.total) found.push(`admin: ${count('squad_join_request')} join requests told, ${pending.body.meta.total} pending`);
        }
      }
      return found;
    }

    it('every member’s feed, saved items, cards, counts, squad and notifications equal a recomputation once the bus settles', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ seed, steps }) => {
          faults.rng = seeded(seed);
          for (const step of steps) {
            // An account is deleted on its own: the cast changes with it.
            await Promise.all(step.filter((a) => a.kind !== 'delete-account').map(act));
            for (const a of step.filter((a) => a.kind === 'delete-account')) await act(a);
          }
          await stack.settle();
          faults.rng = () => 1;
          // A read fills what it must: one page first, then the comparison.
          await Promise.all(members.map((m) => api().get('/api/feed').set(as(m))));
          expect(await differences()).toEqual([]);
        }),
        // First a run that keeps a saved review and hides one, so the coverage check below never rests on chance for them.
        { numRuns: RUNS, endOnFailure: true, examples: [[SAVED_EXAMPLE]] },
      );
      for (const [what, n] of Object.entries(compared)) expect([what, n > 0]).toEqual([what, true]);
    }, 600_000);
  });
}

convergence('convergence on the in-process bus (embedded stack)', () =>
  startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' }, wrapTransport: faulty }),
);

let redis: RedisServerHandle | undefined;
describeWithRedis('convergence.system.spec')('on Redis Streams', () => {
  convergence(
    'convergence on Redis Streams (each service its own connection)',
    async () => {
      redis = await startRedisServer();
      return startEmbeddedStack({
        port: 0,
        dataDir: ':memory:',
        seed: false,
        env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' },
        bus: { redisUrl: redis.url, claimIdleMs: 300 },
        wrapTransport: faulty,
      });
    },
    async () => {
      await redis?.stop();
    },
  );
});
