import { TestService } from '@app/testing';
import { EventPayloads, EventType } from '@app/contracts';
import { Cache, newId } from '@app/store';
import { member, Member, startReviews } from '../reviews.fixture';
import { ViewerContextService } from '../audience/viewer-context.service';
import { FollowGraphService } from '../read-models/follow-graph.service';
import { FEED_CACHE } from './feed.settings';
import { FeedService } from './feed.service';

/**
 * A bulk import's events reach the read models as runs (OnEventBatch): a run of follow.created or
 * review.created must leave what its events one by one would, replays, self-follows and late
 * events included.
 */
describe('runs of follows and reviews (set-based handlers)', () => {
  let svc: TestService;
  let graph: FollowGraphService;
  let contexts: ViewerContextService;
  let cache: Cache;
  const threshold = process.env.FEED_FANOUT_MAX_FOLLOWERS;

  beforeAll(async () => {
    process.env.FEED_FANOUT_MAX_FOLLOWERS = '3'; // so that a run can make an account large
    svc = await startReviews();
    graph = svc.app.get(FollowGraphService);
    contexts = svc.app.get(ViewerContextService);
    cache = svc.app.get<Cache>(FEED_CACHE);
  });

  afterAll(async () => {
    if (threshold === undefined) delete process.env.FEED_FANOUT_MAX_FOLLOWERS;
    else process.env.FEED_FANOUT_MAX_FOLLOWERS = threshold;
    await svc.close();
  });

  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const envelope = <T extends EventType>(type: T, payload: EventPayloads[T], occurredAt = at(0)) =>
    ({ id: newId(), type, version: 1, occurredAt, actorId: null, key: newId(), payload }) as never;
  /** Published in one tick: the consumer takes them as one group, so each run of a type as one array. */
  const deliverTogether = async (events: never[]) => {
    events.forEach((event) => void svc.transport.publish(event));
    await svc.settle();
  };
  const follow = (follower: Member, followee: Member, occurredAt?: string) => envelope('follow.created', { followerId: follower.id, followeeId: followee.id }, occurredAt);
  const feedIds = async (m: Member): Promise<string[]> => {
    const res = await svc.http().get('/api/feed').set(m.auth);
    expect(res.status).toBe(200);
    return (res.body.data as { id: string }[]).map((r) => r.id);
  };

  it('a run of follows adds each new edge once, counts it once, and refuses self-follows and follows older than a removal', async () => {
    const [p, q, r, s, t] = [await member(svc, 'p'), await member(svc, 'q'), await member(svc, 'r'), await member(svc, 's'), await member(svc, 't')];
    await svc.publish('follow.created', { followerId: q.id, followeeId: p.id });
    await deliverTogether([envelope('follow.removed', { followerId: s.id, followeeId: p.id, wasPending: false }, at(1))]);
    expect((await contexts.of(r.id)).context.follows.has(p.id)).toBe(false); // r's context is now held in memory
    expect((await contexts.of(r.id)).large.has(p.id)).toBe(false);
    const addMany = jest.spyOn(graph, 'addMany');

    await deliverTogether([follow(r, p), follow(r, p), follow(q, p), follow(p, p), follow(s, p, at(2)), follow(t, p), follow(r, q)]);

    expect(addMany).toHaveBeenCalledTimes(1); // one run
    expect(await addMany.mock.results[0].value).toEqual([true, false, false, false, false, true, true]);
    expect((await graph.followers(p.id)).sort()).toEqual([q.id, r.id, t.id].sort());
    expect(await graph.followerCount(p.id)).toBe(3);
    expect(await graph.followerCount(q.id)).toBe(1);
    // The followers' contexts and the large accounts (p reached the threshold in the run) changed.
    const scope = await contexts.of(r.id);
    expect([...scope.context.follows].sort()).toEqual([p.id, q.id].sort());
    expect(scope.large.has(p.id)).toBe(true);
    addMany.mockRestore();
  });

  it("a run of reviews reaches each filled timeline of the authors and their followers, but not a muter's", async () => {
    const [a, b, c, d] = [await member(svc, 'a'), await member(svc, 'b'), await member(svc, 'c'), await member(svc, 'd')];
    for (const [follower, followee] of [[c, a], [c, b], [d, a]]) await svc.publish('follow.created', { followerId: follower.id, followeeId: followee.id });
    await svc.publish('mute.created', { muterId: d.id, mutedId: a.id });
    for (const m of [a, b, c, d]) await feedIds(m); // fills each timeline: a push only adds to a filled one
    const fanOutMany = jest.spyOn(svc.app.get(FeedService), 'fanOutMany');
    const review = (author: Member, id: string, minutesAgo: number) =>
      envelope('review.created', { reviewId: id, authorId: author.id, productId: null, productName: null, rating: 4, title: '', excerpt: 'x', created_at: at(minutesAgo) });

    await deliverTogether([review(a, 'ra1', 3), review(b, 'rb1', 2), review(a, 'ra2', 1)]);

    expect(fanOutMany).toHaveBeenCalledTimes(1);
    const timeline = (m: Member) => cache.zrevrange(`timeline:${m.id}`, 0, -1);
    expect(await timeline(a)).toEqual(['ra2', 'ra1']);
    expect(await timeline(b)).toEqual(['rb1']);
    expect(await timeline(c)).toEqual(['ra2', 'rb1', 'ra1']);
    expect(await timeline(d)).toEqual([]);
    fanOutMany.mockRestore();
  });
});
