import { EventPayloads, EventType } from '@app/contracts';
import { newId } from '@app/store';
import { TestService } from '@app/testing';
import { Member, registerMember, startSocial } from '../social.fixture';

describe('stats (HTTP and events)', () => {
  let svc: TestService;
  let ali: Member;
  let burak: Member;
  let cem: Member;

  beforeAll(async () => {
    svc = await startSocial();
    ali = await registerMember(svc, 'Ali');
    burak = await registerMember(svc, 'Burak');
    cem = await registerMember(svc, 'Cem');
  });

  afterAll(() => svc.close());

  const stats = (m: Member) => svc.http().get('/api/users/stats').set(m.auth);
  const review = (reviewId: string, authorId: string) => ({
    reviewId,
    authorId,
    productId: 'p1',
    productName: 'Kettle',
    rating: 5,
    title: 'Kettle',
    excerpt: 'Great',
    created_at: new Date().toISOString(),
  });

  it('starts at zero', async () => {
    const res = await stats(ali);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ reviewsCount: 0, squadsCount: 0, friendsCount: 0 });
  });

  it('counts reviews once per review, however often the events arrive, and shows them on the profile', async () => {
    await svc.publish('review.created', review('r1', ali.id));
    await svc.publish('review.created', review('r1', ali.id));
    await svc.publish('review.created', review('r2', ali.id));
    expect((await stats(ali)).body.data.reviewsCount).toBe(2);
    await svc.publish('review.deleted', { reviewId: 'r1', authorId: ali.id, productId: 'p1' });
    await svc.publish('review.deleted', { reviewId: 'r1', authorId: ali.id, productId: 'p1' });
    expect((await stats(ali)).body.data.reviewsCount).toBe(1);
    const profile = await svc.http().get(`/api/users/profile/${ali.username}`).set(burak.auth);
    expect(profile.body.data.reviews_count).toBe(1);
  });

  it('keeps a review deleted when its creation arrives late', async () => {
    await svc.publish('review.deleted', { reviewId: 'late', authorId: burak.id, productId: null });
    await svc.publish('review.created', review('late', burak.id));
    expect((await stats(burak)).body.data.reviewsCount).toBe(0);
  });

  it('leaves a hidden review out of the count and the profile until it is shown again, in any order (issue 43 §2)', async () => {
    const count = async () => (await svc.http().get(`/api/users/profile/${cem.username}`).set(burak.auth)).body.data.reviews_count;
    await svc.publish('review.created', review('h1', cem.id));
    await svc.publish('review.created', review('h2', cem.id));
    expect(await count()).toBe(2);
    await svc.publish('moderation.content_hidden', { kind: 'review', contentId: 'h1', authorId: cem.id, reason: 'Spam' });
    expect(await count()).toBe(1);
    expect((await stats(cem)).body.data.reviewsCount).toBe(1);
    await svc.publish('moderation.content_shown', { kind: 'review', contentId: 'h1', authorId: cem.id });
    expect(await count()).toBe(2);
    // a comment's hiding is not a review's
    await svc.publish('moderation.content_hidden', { kind: 'comment', contentId: 'h2', authorId: cem.id, reason: 'Rude' });
    expect(await count()).toBe(2);
    // hidden before its creation arrived: counted once shown
    await svc.publish('moderation.content_hidden', { kind: 'review', contentId: 'h3', authorId: cem.id, reason: 'Spam' });
    await svc.publish('review.created', review('h3', cem.id));
    expect(await count()).toBe(2);
    await svc.publish('moderation.content_shown', { kind: 'review', contentId: 'h3', authorId: cem.id });
    expect(await count()).toBe(3);
  });

  it('counts squads from member_joined, member_left and squad.deleted', async () => {
    const joined = (squadId: string, userId: string) =>
      svc.publish('squad.member_joined', { squadId, squadName: squadId, userId, role: 'member', joined_at: new Date().toISOString() }, squadId);
    await joined('s1', ali.id);
    await joined('s1', ali.id);
    await joined('s2', ali.id);
    await joined('s2', burak.id);
    expect((await stats(ali)).body.data.squadsCount).toBe(2);
    await svc.publish('squad.member_left', { squadId: 's1', squadName: 's1', userId: ali.id, reason: 'left' }, 's1');
    expect((await stats(ali)).body.data.squadsCount).toBe(1);
    await svc.publish('squad.deleted', { squadId: 's2', name: 's2', memberIds: [ali.id, burak.id] }, 's2');
    expect((await stats(ali)).body.data.squadsCount).toBe(0);
    expect((await stats(burak)).body.data.squadsCount).toBe(0);
    await joined('s1', ali.id);
    expect((await stats(ali)).body.data.squadsCount).toBe(1);
  });

  /** An event emitted at `occurredAt` and delivered now: a failed delivery comes again behind later events (Redis Streams). */
  const delivered = async <T extends EventType>(type: T, payload: EventPayloads[T], occurredAt: string) => {
    await svc.transport.publish({ id: newId(), type, version: 1, occurredAt, actorId: null, key: newId(), payload } as never);
    await svc.settle();
  };
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

  it('keeps the newer of a join and a leave of one squad, whichever arrives last', async () => {
    const squad = { squadId: 'late-squad', squadName: 'Late' };
    const joined = (userId: string, at: string) => delivered('squad.member_joined', { ...squad, userId, role: 'member', joined_at: at }, at);
    await delivered('squad.member_left', { ...squad, userId: cem.id, reason: 'left' }, minutesAgo(1));
    await joined(cem.id, minutesAgo(2));
    expect((await stats(cem)).body.data.squadsCount).toBe(0);
    await joined(cem.id, minutesAgo(0));
    expect((await stats(cem)).body.data.squadsCount).toBe(1);
    await delivered('squad.deleted', { squadId: squad.squadId, name: 'Late', memberIds: [cem.id] }, minutesAgo(0));
    await delivered('squad.member_left', { ...squad, userId: cem.id, reason: 'left' }, minutesAgo(3));
    await joined(cem.id, minutesAgo(3));
    expect((await stats(cem)).body.data.squadsCount).toBe(0);
  });

  it('keeps the newer of a hide and a show of one review, whichever arrives last', async () => {
    const count = async () => (await stats(burak)).body.data.reviewsCount;
    const before = await count();
    const reviewId = `shown-${newId()}`;
    await svc.publish('review.created', review(reviewId, burak.id));
    await delivered('moderation.content_shown', { kind: 'review', contentId: reviewId, authorId: burak.id }, minutesAgo(1));
    await delivered('moderation.content_hidden', { kind: 'review', contentId: reviewId, authorId: burak.id, reason: 'Spam' }, minutesAgo(2));
    expect(await count()).toBe(before + 1);
    await delivered('moderation.content_hidden', { kind: 'review', contentId: reviewId, authorId: burak.id, reason: 'Spam' }, minutesAgo(0));
    expect(await count()).toBe(before);
  });

  it('counts friends as mutual follows only', async () => {
    await svc.http().post(`/api/follows/users/${burak.id}`).set(ali.auth);
    expect((await stats(ali)).body.data.friendsCount).toBe(0);
    await svc.http().post(`/api/follows/users/${ali.id}`).set(burak.auth);
    await svc.http().post(`/api/follows/users/${ali.id}`).set(cem.auth);
    expect((await stats(ali)).body.data.friendsCount).toBe(1);
    expect((await stats(burak)).body.data.friendsCount).toBe(1);
    expect((await stats(cem)).body.data.friendsCount).toBe(0);
  });

  it('needs a token', async () => {
    expect((await svc.http().get('/api/users/stats')).status).toBe(401);
  });
});
