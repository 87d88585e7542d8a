import { TestService } from '@app/testing';
import { EventPayloads, EventType } from '@app/contracts';
import { Cache, newId, ScoredMember } from '@app/store';
import { makeReview, member, Member, startReviews } from '../reviews.fixture';
import { FEED_CACHE } from './feed.settings';
import { FeedService } from './feed.service';

/**
 * Issue 46 case 1: a timeline written by work that read the follow graph (or the viewer's
 * context) before a follow change and wrote after it. The bus delivers in order, so these tests
 * interleave the two by hand: a gate holds the timeline write of the slow side until the other
 * side's event was handled. Whatever the order, the next page must match the follow graph.
 */
describe('feed convergence (issue 46 case 1)', () => {
  let svc: TestService;
  let author: Member;
  let reader: Member;
  let cache: Cache;
  type Gate = { key: string; opened: Promise<void>; open: () => void; reached: Promise<void> };
  let gate: Gate | undefined;
  let readGate: Gate | undefined;

  beforeAll(async () => {
    svc = await startReviews();
    cache = svc.app.get<Cache>(FEED_CACHE);
    const zaddMany = cache.zaddMany.bind(cache);
    // Holds the gated timeline's next write until the test opens the gate.
    cache.zaddMany = async (key: string, entries: readonly ScoredMember[]) => {
      const held = gate;
      if (held && key.endsWith(held.key)) {
        gate = undefined;
        reachedNow();
        await held.opened;
      }
      return zaddMany(key, entries);
    };
    const zrevrange = cache.zrevrange.bind(cache);
    // Holds the next page read of the gated timeline likewise.
    cache.zrevrange = async (key: string, start: number, stop: number) => {
      const held = readGate;
      if (held && key.endsWith(held.key)) {
        readGate = undefined;
        reachedNow();
        await held.opened;
      }
      return zrevrange(key, start, stop);
    };
  });

  afterAll(() => svc.close());

  let reachedNow: () => void = () => undefined;
  const hold = (userId: string): Gate => {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    const reached = new Promise<void>((r) => (reachedNow = r));
    return { key: `timeline:${userId}`, opened, open, reached };
  };
  const holdWritesTo = (userId: string) => (gate = hold(userId));
  const holdReadsOf = (userId: string) => (readGate = hold(userId));

  const feedIds = async (m: Member): Promise<string[]> => {
    const res = await svc.http().get('/api/feed').set(m.auth);
    expect(res.status).toBe(200);
    return (res.body.data as { id: string }[]).map((r) => r.id);
  };

  beforeEach(async () => {
    author = await member(svc, `author${Date.now()}`);
    reader = await member(svc, `reader${Date.now()}`);
  });

  it('a fan-out that read the followers before an unfollow and wrote after it leaves nothing in the feed', async () => {
    await svc.publish('follow.created', { followerId: reader.id, followeeId: author.id });
    const review = await makeReview(svc, author, { content: 'Fanned out late' });
    await svc.settle();
    expect(await feedIds(reader)).toContain(review.id);
    // A second delivery of review.created (another replica, a redelivery) reads the followers now...
    const held = holdWritesTo(reader.id);
    const fanOut = svc.app.get(FeedService).fanOut({ _id: review.id, user_id: author.id, created_at: new Date().toISOString() });
    await held.reached;
    // ...the unfollow is handled meanwhile...
    await svc.publish('follow.removed', { followerId: reader.id, followeeId: author.id, wasPending: false });
    held.open();
    await fanOut; // ...and the fan-out writes the entry back.
    expect(await feedIds(reader)).not.toContain(review.id);
    expect(await cache.zrevrange(`timeline:${reader.id}`, 0, -1)).not.toContain(review.id);
  });

  it.each([
    ['an unfollow', 'follow.removed'],
    ['a mute', 'mute.created'],
  ] as const)('a timeline filled from a context read before %s shows the author no more once it is handled', async (_, type) => {
    await svc.publish('follow.created', { followerId: reader.id, followeeId: author.id });
    const review = await makeReview(svc, author, { content: 'Read before the change' });
    await svc.settle();
    await svc.app.get(FeedService).dropTimelines([reader.id]);
    // The reader's page reads the context (the author followed) and is held before it fills the timeline.
    const held = holdWritesTo(reader.id);
    const page = feedIds(reader);
    await held.reached;
    if (type === 'follow.removed') await svc.publish(type, { followerId: reader.id, followeeId: author.id, wasPending: false });
    else await svc.publish(type, { muterId: reader.id, mutedId: author.id });
    held.open();
    await page;
    expect(await feedIds(reader)).not.toContain(review.id);
    expect(await feedIds(reader)).not.toContain(review.id);
  });

  it('a timeline filled from a context read before a follow gets the followed author once it is handled', async () => {
    const review = await makeReview(svc, author, { content: 'Followed meanwhile' });
    await svc.settle();
    await svc.app.get(FeedService).dropTimelines([reader.id]);
    // The reader's own review, so the held page has something to write.
    const own = await makeReview(svc, reader, { content: 'Mine' });
    await svc.settle();
    await svc.app.get(FeedService).dropTimelines([reader.id]);
    const held = holdWritesTo(reader.id);
    const page = feedIds(reader);
    await held.reached;
    await svc.publish('follow.created', { followerId: reader.id, followeeId: author.id });
    held.open();
    expect(await page).toEqual([own.id]);
    expect(await feedIds(reader)).toEqual([own.id, review.id]);
  });

  it.each([
    ['a mute and its unmute', 'mute'],
    ['an unfollow and a follow again', 'follow'],
  ] as const)('%s handled with no read in between bring the author back', async (_, kind) => {
    await svc.publish('follow.created', { followerId: reader.id, followeeId: author.id });
    const review = await makeReview(svc, author, { content: 'Back again' });
    await svc.settle();
    expect(await feedIds(reader)).toContain(review.id); // the timeline is filled for {reader, author}
    // The first change takes the author's entries out; the second restores the very author set the
    // timeline was filled for, before any read met the set without the author.
    if (kind === 'mute') {
      await svc.publish('mute.created', { muterId: reader.id, mutedId: author.id });
      await svc.publish('mute.removed', { muterId: reader.id, mutedId: author.id });
    } else {
      await svc.publish('follow.removed', { followerId: reader.id, followeeId: author.id, wasPending: false });
      await svc.publish('follow.created', { followerId: reader.id, followeeId: author.id });
    }
    expect(await feedIds(reader)).toContain(review.id);
  });

  it('a page read with the context before an unmute, dropping the author after a newer read filled them in, leaves them in the feed', async () => {
    await svc.publish('follow.created', { followerId: reader.id, followeeId: author.id });
    const review = await makeReview(svc, author, { content: 'Dropped by a slow page' });
    await svc.settle();
    await svc.publish('mute.created', { muterId: reader.id, mutedId: author.id });
    expect(await feedIds(reader)).not.toContain(review.id); // filled for {reader}
    // A page with the muted context is held before it reads the timeline...
    const held = holdReadsOf(reader.id);
    const slow = feedIds(reader);
    await held.reached;
    // ...the unmute is handled and a newer page fills the author in...
    await svc.publish('mute.removed', { muterId: reader.id, mutedId: author.id });
    expect(await feedIds(reader)).toContain(review.id);
    held.open();
    // ...and the slow page drops the author's entry as a stray of its older set.
    expect(await slow).not.toContain(review.id);
    expect(await feedIds(reader)).toContain(review.id);
  });

  describe('versioned relations: an add that arrives after its removal (redelivered, or claimed late on Redis Streams)', () => {
    /** Delivers an event emitted at `occurredAt`, as a late delivery would. */
    const deliver = async <T extends EventType>(type: T, payload: EventPayloads[T], occurredAt: string) => {
      await svc.transport.publish({ id: newId(), type, version: 1, occurredAt, actorId: null, key: newId(), payload } as never);
      await svc.settle();
    };
    const earlier = new Date(Date.now() - 60_000).toISOString();
    const later = new Date(Date.now() - 30_000).toISOString();

    it('a follow.created older than the follow.removed already applied leaves the author out of the feed', async () => {
      const review = await makeReview(svc, author, { content: 'Unfollowed for good' });
      await svc.settle();
      await deliver('follow.removed', { followerId: reader.id, followeeId: author.id, wasPending: false }, later);
      await deliver('follow.created', { followerId: reader.id, followeeId: author.id }, earlier);
      expect(await feedIds(reader)).not.toContain(review.id);
      // A newer follow (a real re-follow) applies.
      await deliver('follow.created', { followerId: reader.id, followeeId: author.id }, new Date().toISOString());
      expect(await feedIds(reader)).toContain(review.id);
    });

    it.each([
      ['mute', 'mute.removed', 'mute.created'],
      ['block', 'block.removed', 'block.created'],
    ] as const)('a %s older than its removal stays undone', async (_, removed, created) => {
      await svc.publish('follow.created', { followerId: reader.id, followeeId: author.id });
      const review = await makeReview(svc, author, { content: 'Still shown' });
      await svc.settle();
      const pair = removed === 'mute.removed' ? { muterId: reader.id, mutedId: author.id } : { blockerId: reader.id, blockedId: author.id };
      await deliver(removed, pair as never, later);
      await deliver(created, pair as never, earlier);
      if (created === 'mute.created') expect(await feedIds(reader)).toContain(review.id);
      else {
        // The late block is not in force: the reader still opens the review.
        const res = await svc.http().get(`/api/reviews/${review.id}`).set(reader.auth);
        expect(res.status).toBe(200);
      }
    });
  });
});
