import 'reflect-metadata';
import { EventPayloads, EventType } from '@app/contracts';
import { EventBus } from '@app/bus';
import { newId } from '@app/store';
import { probeStore } from '@app/testing';
import { SquadsFixture, TestMember } from '../squads.fixture';
import { weekActivityCollection } from './week-activity.collection';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** Issue 43 §2: a squad's stats are counted from data: members, its members' reviews and its chat's messages this week. */
describe("a squad's week (messaging's and reviews' events)", () => {
  let fx: SquadsFixture;
  let ayse: TestMember;
  let burak: TestMember;
  let cem: TestMember;

  beforeAll(async () => {
    fx = await SquadsFixture.start();
    [ayse, burak, cem] = [await fx.member('ayse'), await fx.member('burak'), await fx.member('cem')];
  });

  afterAll(() => fx.close());

  const week = async (squadId: string, viewer = ayse) => (await fx.http().get(`/api/squads/${squadId}`).set(viewer.auth)).body.data.week;
  const review = (reviewId: string, authorId: string, created_at: string) =>
    fx.svc.publish('review.created', { reviewId, authorId, productId: null, productName: null, rating: 4, title: '', excerpt: 'x', created_at });
  const message = (messageId: string, squadId: string | undefined, senderId: string, created_at: string) =>
    fx.svc.publish('message.sent', {
      messageId,
      conversationId: `c-${squadId ?? 'dm'}`,
      senderId,
      memberIds: [senderId],
      message: { id: messageId, conversation_id: `c-${squadId ?? 'dm'}`, sender_id: senderId, sender: { id: senderId, username: 'x', display_name: 'X', profile_image_url: null }, content: 'hi', created_at },
      ...(squadId && { squadId }),
    });

  it('a new squad of one with no posts has zeros, whatever its founder wrote before it', async () => {
    await review('old-r', ayse.id, ago(10));
    await review('yesterday-r', ayse.id, ago(1));
    const squadId = await fx.createSquad(ayse, { name: 'Fresh Squad' });
    expect(await week(squadId)).toEqual({ messages: 0, reviews: 0 });
  });

  it("counts this week's reviews by its members and messages in its chat, once each, and drops deleted and hidden ones", async () => {
    const squadId = await fx.createSquad(ayse, { name: 'Busy Squad' });
    const other = await fx.createSquad(cem, { name: 'Other Squad' });
    await fx.join(ayse, burak, squadId);
    const now = () => new Date().toISOString();
    await review('r1', ayse.id, now());
    await review('r1', ayse.id, now()); // redelivered
    await review('r2', burak.id, now());
    await review('r3', burak.id, ago(2)); // before burak joined
    await review('r4', cem.id, now()); // not a member
    await message('m1', squadId, ayse.id, ago(0));
    await message('m2', squadId, burak.id, ago(3));
    await message('m3', other, cem.id, ago(0)); // another squad's chat
    await message('m4', undefined, ayse.id, ago(0)); // a direct message
    expect(await week(squadId)).toEqual({ messages: 2, reviews: 2 });

    await fx.svc.publish('review.deleted', { reviewId: 'r1', authorId: ayse.id, productId: null });
    await fx.svc.publish('message.deleted', { messageId: 'm2', conversationId: `c-${squadId}`, senderId: burak.id, memberIds: [burak.id], deletedAt: ago(0) });
    await fx.svc.publish('moderation.content_hidden', { kind: 'review', contentId: 'r2', authorId: burak.id, reason: 'Spam' });
    expect(await week(squadId)).toEqual({ messages: 1, reviews: 0 });
    await fx.svc.publish('moderation.content_shown', { kind: 'review', contentId: 'r2', authorId: burak.id });
    expect(await week(squadId)).toEqual({ messages: 1, reviews: 1 });
    // a member who leaves takes their reviews out of the squad's week
    expect((await fx.http().post(`/api/squads/${squadId}/leave`).set(burak.auth)).status).toBeLessThan(300);
    expect(await week(squadId)).toEqual({ messages: 1, reviews: 0 });
  });

  /** An event emitted at `occurredAt` and delivered now: a failed delivery comes again behind later events (Redis Streams). */
  const delivered = async <T extends EventType>(type: T, payload: EventPayloads[T], occurredAt: string) => {
    await fx.svc.transport.publish({ id: newId(), type, version: 1, occurredAt, actorId: null, key: newId(), payload } as never);
    await fx.svc.settle();
  };
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

  it('counts a review or message right whatever order its events arrive in', async () => {
    const squadId = await fx.createSquad(burak, { name: 'Late Squad' });
    const hidden = (contentId: string, at: string) => delivered('moderation.content_hidden', { kind: 'review', contentId, authorId: burak.id, reason: 'Spam' }, at);
    const shown = (contentId: string, at: string) => delivered('moderation.content_shown', { kind: 'review', contentId, authorId: burak.id }, at);
    // deleted, then its creation arrives
    await delivered('review.deleted', { reviewId: 'late-deleted', authorId: burak.id, productId: null }, minutesAgo(0));
    await review('late-deleted', burak.id, new Date().toISOString());
    // hidden, then its creation arrives
    await hidden('late-hidden', minutesAgo(0));
    await review('late-hidden', burak.id, new Date().toISOString());
    // shown again, then the older hide arrives
    await review('shown-first', burak.id, new Date().toISOString());
    await shown('shown-first', minutesAgo(1));
    await hidden('shown-first', minutesAgo(2));
    // a message deleted, then its sending arrives
    await delivered('message.deleted', { messageId: 'late-m', conversationId: `c-${squadId}`, senderId: burak.id, memberIds: [burak.id], deletedAt: minutesAgo(0) }, minutesAgo(0));
    await message('late-m', squadId, burak.id, new Date().toISOString());
    expect(await week(squadId, burak)).toEqual({ messages: 0, reviews: 1 });
    await shown('late-hidden', minutesAgo(0));
    expect(await week(squadId, burak)).toEqual({ messages: 0, reviews: 2 });
  });

  it('a direct message and a hidden comment cost squads no transaction; a squad message one', async () => {
    const squadId = await fx.createSquad(ayse, { name: 'Quiet Squad' });
    await fx.svc.settle();
    await fx.svc.app.get(EventBus).dropPublished(); // the squad's published rows go now, not while the probe counts
    const probe = probeStore(fx.svc.store);
    try {
      await message('dm-1', undefined, ayse.id, ago(0));
      await fx.svc.publish('moderation.content_hidden', { kind: 'comment', contentId: 'c1', authorId: ayse.id, reason: 'Spam' });
      await fx.svc.publish('moderation.content_shown', { kind: 'comment', contentId: 'c1', authorId: ayse.id });
      expect(probe.commits).toBe(0);
      await message('sq-1', squadId, ayse.id, ago(0));
      expect(probe.commits).toBeGreaterThan(0);
    } finally {
      probe.stop();
    }
    expect(await week(squadId)).toEqual({ messages: 1, reviews: 0 });
  });

  it('takes a run of reviews (an import) in one insert and one prune, replays and old rows included', async () => {
    const squadId = await fx.createSquad(cem, { name: 'Imported Squad' });
    await review('run-seen', cem.id, ago(0));
    await fx.svc.store.collection(weekActivityCollection).insert({ _id: 'review:stale', kind: 'review', user_id: cem.id, at: ago(20) });
    const run = ['run-seen', ...Array.from({ length: 20 }, (_, i) => `run-${i}`)].map((reviewId) => ({
      id: newId(), type: 'review.created', version: 1, occurredAt: new Date().toISOString(), actorId: null, key: newId(),
      payload: { reviewId, authorId: cem.id, productId: null, productName: null, rating: 4, title: '', excerpt: 'x', created_at: ago(0) },
    }));
    const probe = probeStore(fx.svc.store);
    try {
      run.slice(1).forEach((event) => void fx.svc.transport.publish(event as never)); // one tick: one group, one run
      await fx.svc.settle();
      expect(probe.writes).toBeLessThanOrEqual(3); // the rows, the prune, the inbox
      probe.reset();
      run.forEach((event) => void fx.svc.transport.publish({ ...event, id: newId() } as never)); // all of them again, as new deliveries
      await fx.svc.settle();
    } finally {
      probe.stop();
    }
    expect(await week(squadId, cem)).toEqual({ messages: 0, reviews: 21 });
    expect(await fx.svc.store.collection(weekActivityCollection).findById('review:stale')).toBeNull();
  });

  it('only the detail carries the week', async () => {
    const squadId = await fx.createSquad(cem, { name: 'Listed Squad' });
    const mine = (await fx.http().get('/api/squads/my-squads').set(cem.auth)).body.data;
    expect(mine.find((s: { id: string }) => s.id === squadId).week).toBeUndefined();
    expect(await week(squadId, cem)).toEqual({ messages: 0, reviews: 0 });
  });
});
