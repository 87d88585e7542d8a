import { TestService } from '@app/testing';
import { member, startReviews } from '../reviews.fixture';
import { followEdgesCollection } from '../read-models/follow-graph.collection';
import { contextStampsCollection } from './viewer-context.collection';
import { ViewerContextService } from './viewer-context.service';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('viewer context in memory', () => {
  let svc: TestService;
  let contexts: ViewerContextService;

  beforeAll(async () => {
    process.env.VIEWER_CONTEXT_CAPACITY = '2';
    svc = await startReviews();
    contexts = svc.app.get(ViewerContextService);
  });

  afterAll(async () => {
    delete process.env.VIEWER_CONTEXT_CAPACITY;
    await svc.close();
  });

  it('keeps at most its capacity of contexts, dropping the least recently read', async () => {
    const [a, b, c] = [await member(svc, 'a'), await member(svc, 'b'), await member(svc, 'c')];
    await svc.publish('follow.created', { followerId: a.id, followeeId: b.id });
    for (const m of [a, b, c]) expect((await svc.http().get('/api/feed').set(m.auth)).status).toBe(200);
    expect(contexts.size).toBe(2);
    // a was evicted: reading it again loads it from the store, follows and all.
    expect([...(await contexts.of(a.id)).context.follows]).toEqual([b.id]);
    expect(contexts.size).toBe(2);
  });

  it('a stamp moved by another replica makes the next read load the stored context', async () => {
    const [d, e] = [await member(svc, 'd'), await member(svc, 'e')];
    expect((await contexts.of(d.id)).context.followees).toEqual([]);
    await svc.store.collection(followEdgesCollection).insert({ follower_id: d.id, followee_id: e.id, created_at: new Date().toISOString() });
    expect((await contexts.of(d.id)).context.followees).toEqual([]); // same stamp: the copy in memory
    await svc.store.collection(contextStampsCollection).updateOne({ _id: d.id }, { $set: { stamp: 'moved' } }, { upsert: true });
    // Another replica's change is seen from the next turn of the event loop on, as the store's caches see it.
    await nextTurn();
    expect((await contexts.of(d.id)).context.followees).toEqual([e.id]);
  });

  it('answers the same viewer once a turn, and again after a touch', async () => {
    const [f, g] = [await member(svc, 'f'), await member(svc, 'g')];
    await nextTurn();
    const first = contexts.of(f.id);
    expect(contexts.of(f.id)).toBe(first);
    expect((await first).context.followees).toEqual([]);
    await svc.store.collection(followEdgesCollection).insert({ follower_id: f.id, followee_id: g.id, created_at: new Date().toISOString() });
    await contexts.touch(f.id);
    expect((await contexts.of(f.id)).context.followees).toEqual([g.id]);
    await nextTurn();
    expect(contexts.of(f.id)).not.toBe(first);
  });
});
