import { INestApplication } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { EventBus, MemoryTransport } from '@app/bus';
import { EventEnvelope } from '@app/contracts';
import { buildService } from '@app/platform';
import { createStore, newId } from '@app/store';
import { TEST_JWT_SECRET, testConfig } from '@app/testing';
import { describeWithPostgres, PostgresServerHandle, startPostgresServer } from '@app/testing/engines';
import { ActivitiesService } from '../activities/activities.service';
import { reviewsService } from '../reviews.service-definition';

/**
 * Issue 44: on PostgreSQL, toggles that come while others are in flight share one transaction
 * (`ToggleBatches`, `EventBus.emitOneOfEachWith`); each still gets its own outcome and event.
 */
describeWithPostgres('like-batches')('likes: toggles batched into shared transactions (PostgreSQL)', () => {
  const MEMBERS = 12;
  let server: PostgresServerHandle;
  let app: INestApplication;
  let transport: MemoryTransport;
  const published: EventEnvelope[] = [];
  const jwt = new JwtService({ secret: TEST_JWT_SECRET, signOptions: { algorithm: 'HS256', expiresIn: 3600 } });
  const members: { id: string; auth: string }[] = [];
  let reviewIds: string[];

  const toggle = (m: { auth: string }, reviewId: string) => request(app.getHttpServer()).post(`/api/likes/reviews/${reviewId}`).set('Authorization', m.auth);
  const likeCount = async (reviewId: string) =>
    (await request(app.getHttpServer()).get(`/api/likes/reviews/${reviewId}/status`).set('Authorization', members[0].auth)).body.data.like_count as number;
  const likeEvents = (type: string, reviewId: string) =>
    published.filter((e) => e.type === type && (e.payload as { reviewId: string }).reviewId === reviewId).map((e) => e.payload as { userId: string; likeCount: number });

  beforeAll(async () => {
    server = await startPostgresServer();
    transport = new MemoryTransport();
    const publish = transport.publish.bind(transport);
    transport.publish = async (event) => {
      published.push(event as EventEnvelope);
      return publish(event);
    };
    const store = createStore('reviews', { engine: 'postgres', postgresUrl: await server.createDatabase('like_batches'), dataDir: ':memory:' });
    app = await buildService(reviewsService, { config: testConfig(), store, transport });
    for (let i = 0; i < MEMBERS; i++) {
      const id = newId();
      const username = `liker${i}`;
      await publish({
        id: newId(),
        type: 'user.registered',
        version: 1,
        occurredAt: new Date().toISOString(),
        actorId: null,
        key: id,
        payload: { userId: id, username, email: `${username}@example.com`, display_name: username, name: username, profile_image_url: null, created_at: new Date().toISOString() },
      } as never);
      members.push({ id, auth: `Bearer ${jwt.sign({ sub: id, username })}` });
    }
    await transport.drain();
    reviewIds = [];
    for (const content of ['First of three', 'Second of three', 'Third of three']) {
      const res = await request(app.getHttpServer()).post('/api/reviews').set('Authorization', members[0].auth).send({ content });
      expect(res.status).toBe(201);
      reviewIds.push(res.body.data.id);
    }
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await transport?.close();
    await server?.stop();
  });

  afterEach(() => jest.restoreAllMocks());

  /**
   * The first two changes (both batches in flight) wait 100 ms, as on a busy database: the toggles
   * that come meanwhile wait and go together. `refuse` fails the changes of one review.
   */
  function holdFirstBatches(refuse?: string) {
    const activities = app.get(ActivitiesService);
    const real = activities.likeFollowUps.bind(activities);
    let held = 0;
    jest.spyOn(activities, 'likeFollowUps').mockImplementation(async (userId, review, ...rest) => {
      if (held++ < 2) await new Promise((resolve) => setTimeout(resolve, 100));
      if (review._id === refuse) throw new Error('refused for the test');
      return real(userId, review, ...rest);
    });
    return { again: () => (held = 0) };
  }

  it('likes and unlikes sent at once share transactions, each with its own reply, count and event', async () => {
    const batches = jest.spyOn(app.get(EventBus), 'emitOneOfEachWith');
    const hold = holdFirstBatches();
    for (const liked of [true, false]) {
      batches.mockClear();
      hold.again();
      const replies = await Promise.all(members.flatMap((m) => reviewIds.map((id) => toggle(m, id))));
      expect(replies.map((r) => [r.status, r.body.data.liked])).toEqual(Array(MEMBERS * 3).fill([200, liked]));
      // Fewer transactions than toggles, and every toggle in exactly one of them.
      const sizes = batches.mock.calls.map(([changes]) => changes.length);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(MEMBERS * 3);
      expect(sizes.length).toBeLessThan(MEMBERS * 3);
      await transport.drain();
      for (const id of reviewIds) {
        expect(await likeCount(id)).toBe(liked ? MEMBERS : 0);
        // One event per toggle, each telling a different count: 1..n as the likes went in, n-1..0 as they went.
        const counts = likeEvents(liked ? 'review.liked' : 'review.unliked', id).map((e) => e.likeCount).sort((a, b) => a - b);
        expect(counts).toEqual(Array.from({ length: MEMBERS }, (_, i) => (liked ? i + 1 : i)));
      }
      published.length = 0;
    }
  });

  it('a toggle whose change fails gets its own error; the others of its batch go through once each', async () => {
    const [broken, ...fine] = reviewIds;
    const batches = jest.spyOn(app.get(EventBus), 'emitOneOfEachWith');
    holdFirstBatches(broken);
    const replies = await Promise.all(members.flatMap((m) => [broken, ...fine].map(async (id) => ({ id, res: await toggle(m, id) }))));
    for (const { id, res } of replies) expect([id, res.status]).toEqual([id, id === broken ? 500 : 200]);
    // Batches of several failed for the broken review's toggles in them, and went again toggle by toggle.
    expect(batches.mock.calls.some(([changes]) => changes.length > 1)).toBe(true);
    jest.restoreAllMocks();
    await transport.drain();
    expect(await likeCount(broken)).toBe(0);
    for (const id of fine) {
      expect(await likeCount(id)).toBe(MEMBERS);
      expect(likeEvents('review.liked', id)).toHaveLength(MEMBERS);
    }
    expect(likeEvents('review.liked', broken)).toEqual([]);
  });
});
