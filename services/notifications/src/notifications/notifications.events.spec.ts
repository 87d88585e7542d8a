import { inboxCollection } from '@app/bus';
import { EventEnvelope } from '@app/contracts';
import { newId } from '@app/store';
import { createTestService, TestService } from '@app/testing';
import { notificationsService } from '../notifications.service-definition';
import { emailOutboxCollection } from './email-outbox.collection';
import { Notifier } from './notifier.service';
import { addMember, like, Member, notificationsOf, publishRun, pushesTo, unreadCountOf } from '../notifications.fixture';

describe('notifications service: notifications from events', () => {
  let svc: TestService;
  let ayse: Member;
  let burak: Member;

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
  });

  afterAll(() => svc.close());

  beforeEach(async () => {
    ayse = await addMember(svc, 'Ayşe Yılmaz');
    burak = await addMember(svc, 'Burak Kaya');
  });

  const follow = (follower: Member, followee: Member) =>
    svc.publish('follow.created', { followerId: follower.id, followeeId: followee.id }, followee.id, follower.id);
  const block = (blocker: Member, blocked: Member) =>
    svc.publish('block.created', { blockerId: blocker.id, blockedId: blocked.id }, blocker.id, blocker.id);
  const postReview = async (author: Member) => {
    const reviewId = newId();
    await svc.publish(
      'review.created',
      {
        reviewId,
        authorId: author.id,
        productId: null,
        productName: 'AeroPress',
        rating: 5,
        title: 'AeroPress',
        excerpt: 'Great coffee',
        created_at: new Date().toISOString(),
      },
      reviewId,
      author.id,
    );
    return reviewId;
  };
  const emailsTo = (member: Member) => svc.store.collection(emailOutboxCollection).find({ user_id: member.id });

  describe('each event type', () => {
    it('review.liked tells the review author, with the liker as related_user, and announces it', async () => {
      await like(svc, burak, ayse);
      const [item] = await notificationsOf(svc, ayse);
      expect(item).toMatchObject({
        type: 'review_liked',
        message: 'Burak Kaya liked your review',
        is_read: false,
        related_user: { id: burak.id, username: burak.username, display_name: 'Burak Kaya', profile_image_url: null },
      });
      expect(item.created_at).toEqual(expect.any(String));
      expect(pushesTo(svc, ayse)).toEqual([
        { notificationId: item.id, recipientId: ayse.id, push: true, notification: item },
      ]);
      expect(await notificationsOf(svc, burak)).toEqual([]);
    });

    it('comment.created tells the review author once per comment', async () => {
      const reviewId = newId();
      for (const excerpt of ['Nice!', 'Where did you buy it?']) {
        await svc.publish('comment.created', {
          commentId: newId(),
          reviewId,
          reviewAuthorId: ayse.id,
          userId: burak.id,
          excerpt,
        });
      }
      const items = await notificationsOf(svc, ayse);
      expect(items.map((n) => [n.type, n.message])).toEqual([
        ['comment', 'Burak Kaya commented on your review'],
        ['comment', 'Burak Kaya commented on your review'],
      ]);
    });

    it('moderation.content_hidden tells the author why, without naming the moderator', async () => {
      const reviewId = newId();
      await svc.publish('moderation.content_hidden', { kind: 'review', contentId: reviewId, authorId: ayse.id, reason: 'Spam links' });
      expect(await notificationsOf(svc, ayse)).toMatchObject([
        { type: 'review_hidden', message: 'A moderator hid your review: Spam links', related_user: { id: ayse.id } },
      ]);
      expect(await notificationsOf(svc, burak)).toEqual([]);
    });

    it('moderation.content_hidden of a comment tells its author it was the comment', async () => {
      await svc.publish('moderation.content_hidden', { kind: 'comment', contentId: newId(), authorId: burak.id, reason: 'Insults' });
      expect(await notificationsOf(svc, burak)).toMatchObject([{ type: 'comment_hidden', message: 'A moderator hid your comment: Insults' }]);
    });

    it('follow.created tells the followee', async () => {
      await follow(burak, ayse);
      expect(await notificationsOf(svc, ayse)).toMatchObject([
        { type: 'new_follower', message: 'Burak Kaya started following you', related_user: { id: burak.id } },
      ]);
      expect(await notificationsOf(svc, burak)).toEqual([]);
    });

    it('follow.requested tells the followee; follow.accepted tells the requester', async () => {
      await svc.publish('follow.requested', { followerId: burak.id, followeeId: ayse.id });
      await svc.publish('follow.accepted', { followerId: burak.id, followeeId: ayse.id });
      expect(await notificationsOf(svc, ayse)).toMatchObject([
        { type: 'follow_request', message: 'Burak Kaya sent you a follow request', related_user: { id: burak.id } },
      ]);
      expect(await notificationsOf(svc, burak)).toMatchObject([
        { type: 'follow_accepted', message: 'Ayşe Yılmaz accepted your follow request', related_user: { id: ayse.id } },
      ]);
    });

    it('review.created tells every current follower of the author, and nobody else', async () => {
      const cem = await addMember(svc, 'Cem Demir');
      const deniz = await addMember(svc, 'Deniz Ak');
      const elif = await addMember(svc, 'Elif Şahin');
      const stranger = await addMember(svc, 'Fatma Öz');
      await follow(burak, ayse);
      await svc.publish('follow.accepted', { followerId: cem.id, followeeId: ayse.id });
      await follow(deniz, ayse);
      await svc.publish('follow.removed', { followerId: deniz.id, followeeId: ayse.id, wasPending: false });
      await follow(elif, ayse);
      // A request that ended while pending does not undo an existing follow.
      await svc.publish('follow.removed', { followerId: elif.id, followeeId: ayse.id, wasPending: true });

      await postReview(ayse);

      for (const follower of [burak, cem, elif]) {
        expect(await notificationsOf(svc, follower, '?limit=50')).toContainEqual(
          expect.objectContaining({ type: 'new_review', message: 'Ayşe Yılmaz posted a new review' }),
        );
      }
      for (const other of [deniz, stranger, ayse]) {
        const types = (await notificationsOf(svc, other)).map((n) => n.type);
        expect(types).not.toContain('new_review');
      }
    });

    it('squad.join_requested tells each admin and moderator', async () => {
      const cem = await addMember(svc, 'Cem Demir');
      await svc.publish('squad.join_requested', {
        squadId: newId(),
        squadName: 'Coffee Nerds',
        requestId: newId(),
        userId: burak.id,
        message: 'I roast at home',
        managerIds: [ayse.id, cem.id],
      });
      for (const manager of [ayse, cem]) {
        expect(await notificationsOf(svc, manager)).toMatchObject([
          { type: 'squad_join_request', message: 'Burak Kaya wants to join Coffee Nerds', related_user: { id: burak.id } },
        ]);
      }
    });

    it.each([
      ['approved', 'squad_join_approved', 'Ayşe Yılmaz approved your request to join Coffee Nerds'],
      ['rejected', 'squad_join_rejected', 'Ayşe Yılmaz declined your request to join Coffee Nerds'],
    ] as const)('squad.join_decided (%s) tells the requester', async (decision, type, message) => {
      await svc.publish('squad.join_decided', {
        squadId: newId(),
        squadName: 'Coffee Nerds',
        requestId: newId(),
        userId: burak.id,
        decision,
        decidedBy: ayse.id,
      });
      expect(await notificationsOf(svc, burak)).toMatchObject([{ type, message, related_user: { id: ayse.id } }]);
      expect(await notificationsOf(svc, ayse)).toEqual([]);
    });

    it('a squad chat mention on message.sent or message.edited tells each named member once, linked to the squad', async () => {
      const cem = await addMember(svc, 'Cem Demir');
      const squadId = newId();
      const messageId = newId();
      const mentions = (userIds: string[]) => ({ squadId, squadName: 'Coffee Nerds', userIds });
      const message = { id: messageId, conversation_id: 'c1', sender_id: burak.id, sender: { id: burak.id, username: burak.username, display_name: 'Burak Kaya', profile_image_url: null }, content: '@ayse', created_at: new Date().toISOString() };
      await svc.publish('message.sent', { messageId, conversationId: 'c1', senderId: burak.id, memberIds: [ayse.id, burak.id, cem.id], message, mentions: mentions([ayse.id]) });
      await svc.publish('message.sent', { messageId: newId(), conversationId: 'c1', senderId: burak.id, memberIds: [ayse.id, burak.id, cem.id], message });
      expect(await notificationsOf(svc, ayse)).toMatchObject([
        { type: 'squad_mention', message: 'Burak Kaya mentioned you in Coffee Nerds chat', squad_id: squadId, related_user: { id: burak.id } },
      ]);
      expect(await notificationsOf(svc, cem)).toEqual([]);
      const edited = { messageId, conversationId: 'c1', senderId: burak.id, memberIds: [ayse.id, burak.id, cem.id], content: '@ayse @cem', editedAt: new Date().toISOString() };
      await svc.publish('message.edited', { ...edited, mentions: mentions([cem.id]) });
      expect(await notificationsOf(svc, cem)).toMatchObject([{ type: 'squad_mention', squad_id: squadId }]);
      expect(await notificationsOf(svc, ayse)).toHaveLength(1);
    });

    it('a decided join request clears every manager\'s "wants to join" for it, and only that one', async () => {
      const cem = await addMember(svc, 'Cem Demir');
      const dilek = await addMember(svc, 'Dilek Ak');
      const squadId = newId();
      const requestId = newId();
      const base = { squadId, squadName: 'Coffee Nerds', message: null, managerIds: [ayse.id, cem.id] };
      await svc.publish('squad.join_requested', { ...base, requestId, userId: burak.id });
      await svc.publish('squad.join_requested', { ...base, requestId: newId(), userId: dilek.id });
      expect(await notificationsOf(svc, ayse)).toEqual([
        expect.objectContaining({ type: 'squad_join_request', squad_id: squadId }),
        expect.objectContaining({ type: 'squad_join_request', squad_id: squadId }),
      ]);

      await svc.publish('squad.join_decided', { squadId, squadName: 'Coffee Nerds', requestId, userId: burak.id, decision: 'approved', decidedBy: ayse.id });
      for (const manager of [ayse, cem]) {
        expect((await notificationsOf(svc, manager)).map((n) => n.message)).toEqual(['Dilek Ak wants to join Coffee Nerds']);
      }
      expect(await unreadCountOf(svc, cem)).toBe(1);
    });

    it('a join request delivered after its decision (a redelivery behind later events) tells no manager', async () => {
      const squadId = newId();
      const requestId = newId();
      await svc.publish('squad.join_decided', { squadId, squadName: 'Coffee Nerds', requestId, userId: burak.id, decision: 'approved', decidedBy: ayse.id });
      await svc.publish('squad.join_requested', { squadId, squadName: 'Coffee Nerds', requestId, userId: burak.id, message: null, managerIds: [ayse.id] });
      expect(await notificationsOf(svc, ayse)).toEqual([]);
      expect(await unreadCountOf(svc, ayse)).toBe(0);
    });

    it('a join request decided while its managers are being told leaves them no "wants to join"', async () => {
      const squadId = newId();
      const requestId = newId();
      const notifier = svc.app.get(Notifier);
      const notifyAll = notifier.notifyAll.bind(notifier);
      // The decision is handled after the request's handler found it undecided, before its notices are written.
      notifier.notifyAll = async (base, recipients) => {
        notifier.notifyAll = notifyAll;
        await notifier.joinRequestDecided(squadId, requestId, new Date().toISOString());
        return notifyAll(base, recipients);
      };
      await svc.publish('squad.join_requested', { squadId, squadName: 'Coffee Nerds', requestId, userId: burak.id, message: null, managerIds: [ayse.id] });
      expect(notifier.notifyAll).toBe(notifyAll);
      expect(await notificationsOf(svc, ayse)).toEqual([]);
    });

    it('squad.updated renames the squad in its notifications; an older rename arriving late is ignored', async () => {
      const squadId = newId();
      const otherSquad = newId();
      const request = (id: string, squadName: string) =>
        svc.publish('squad.join_requested', { squadId: id, squadName, requestId: newId(), userId: burak.id, message: null, managerIds: [ayse.id] });
      await request(squadId, 'Coffee Nerds');
      await request(otherSquad, 'Tea Club');
      const messages = async () => (await notificationsOf(svc, ayse)).map((n) => n.message).sort();

      const updated_at = new Date().toISOString();
      await svc.publish('squad.updated', { squadId, name: 'Espresso Nerds', category: 'Food', updated_at }, squadId);
      expect(await messages()).toEqual(['Burak Kaya wants to join Espresso Nerds', 'Burak Kaya wants to join Tea Club']);

      const earlier = new Date(Date.parse(updated_at) - 60_000).toISOString();
      await svc.publish('squad.updated', { squadId, name: 'Coffee Nerds', category: 'Food', updated_at: earlier }, squadId);
      expect(await messages()).toEqual(['Burak Kaya wants to join Espresso Nerds', 'Burak Kaya wants to join Tea Club']);
    });
  });

  describe('idempotency', () => {
    it('a like, unlike and like again leaves one notification and pushes once while it is unread', async () => {
      const reviewId = await like(svc, burak, ayse);
      await svc.publish('review.unliked', { reviewId, reviewAuthorId: ayse.id, userId: burak.id, likeCount: 0 });
      await like(svc, burak, ayse, reviewId);
      expect(await notificationsOf(svc, ayse)).toHaveLength(1);
      expect(await unreadCountOf(svc, ayse)).toBe(1);
      expect(pushesTo(svc, ayse)).toHaveLength(1);
    });

    it('a repeat after the first was read brings the same notification back as unread and pushes it again', async () => {
      const reviewId = await like(svc, burak, ayse);
      const [first] = await notificationsOf(svc, ayse);
      await svc.http().put(`/api/notifications/${first.id}/read`).set(ayse.auth).expect(200);
      await like(svc, burak, ayse, reviewId);
      const items = await notificationsOf(svc, ayse);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ id: first.id, is_read: false });
      expect(pushesTo(svc, ayse).map((p) => p.notificationId)).toEqual([first.id, first.id]);
    });

    it('the same event delivered twice changes nothing the second time, even past the bus inbox', async () => {
      const event: EventEnvelope<'comment.created'> = {
        id: newId(),
        type: 'comment.created',
        version: 1,
        occurredAt: new Date().toISOString(),
        actorId: burak.id,
        key: newId(),
        payload: { commentId: newId(), reviewId: newId(), reviewAuthorId: ayse.id, userId: burak.id, excerpt: 'Hi' },
      };
      await svc.transport.publish(event);
      await svc.settle();
      // Forget that the event was handled, as a crash between the effect and the inbox write would.
      await svc.store.collection(inboxCollection).deleteOne({ _id: event.id });
      await svc.transport.publish(event);
      await svc.settle();
      expect(await notificationsOf(svc, ayse)).toHaveLength(1);
      expect(pushesTo(svc, ayse)).toHaveLength(1);
      expect(await emailsTo(ayse)).toHaveLength(1);
    });

    it('a repeated follow does not add a second new_follower', async () => {
      await follow(burak, ayse);
      await svc.publish('follow.removed', { followerId: burak.id, followeeId: ayse.id, wasPending: false });
      await follow(burak, ayse);
      expect(await notificationsOf(svc, ayse)).toHaveLength(1);
    });
  });

  describe('who is never notified', () => {
    it('nobody hears of their own action', async () => {
      await like(svc, ayse, ayse);
      await svc.publish('comment.created', {
        commentId: newId(),
        reviewId: newId(),
        reviewAuthorId: ayse.id,
        userId: ayse.id,
        excerpt: 'Edit: still great',
      });
      await svc.publish('squad.join_requested', {
        squadId: newId(),
        squadName: 'Coffee Nerds',
        requestId: newId(),
        userId: ayse.id,
        message: null,
        managerIds: [ayse.id],
      });
      expect(await notificationsOf(svc, ayse)).toEqual([]);
      expect(pushesTo(svc, ayse)).toEqual([]);
    });

    it('nobody hears from someone they blocked, nor from someone who blocked them', async () => {
      const cem = await addMember(svc, 'Cem Demir');
      await block(ayse, burak);
      await block(cem, ayse);
      await like(svc, burak, ayse);
      await like(svc, ayse, cem);
      await like(svc, cem, ayse);
      await svc.publish('squad.join_requested', {
        squadId: newId(),
        squadName: 'Coffee Nerds',
        requestId: newId(),
        userId: burak.id,
        message: null,
        managerIds: [ayse.id, cem.id],
      });
      expect(await notificationsOf(svc, ayse)).toEqual([]);
      expect(await notificationsOf(svc, cem)).toMatchObject([
        { type: 'squad_join_request', related_user: { id: burak.id } },
      ]);
    });

    it('a block ends the follow (no new_review) and removes what each had caused the other', async () => {
      await follow(burak, ayse);
      await like(svc, ayse, burak);
      await block(ayse, burak);
      await postReview(ayse);
      expect(await notificationsOf(svc, ayse)).toEqual([]);
      expect(await notificationsOf(svc, burak)).toEqual([]);
    });

    it('after block.removed notifications flow again', async () => {
      await block(ayse, burak);
      await svc.publish('block.removed', { blockerId: ayse.id, blockedId: burak.id });
      await like(svc, burak, ayse);
      expect(await notificationsOf(svc, ayse)).toHaveLength(1);
    });

    it('nobody hears from someone they muted (nothing stored, nothing pushed); the muted still hear from them', async () => {
      const mute = (type: 'mute.created' | 'mute.removed') =>
        svc.publish(type, { muterId: ayse.id, mutedId: burak.id }, ayse.id, ayse.id);
      await follow(ayse, burak);
      await mute('mute.created');
      await like(svc, burak, ayse);
      await follow(burak, ayse);
      await postReview(burak);
      expect(await notificationsOf(svc, ayse)).toEqual([]);
      expect(pushesTo(svc, ayse)).toEqual([]);
      await like(svc, ayse, burak);
      expect((await notificationsOf(svc, burak)).map((n) => [n.type, n.related_user?.id])).toEqual([
        ['review_liked', ayse.id],
        ['new_follower', ayse.id],
      ]);
      await mute('mute.removed');
      await like(svc, burak, ayse);
      expect(await notificationsOf(svc, ayse)).toMatchObject([{ type: 'review_liked', related_user: { id: burak.id } }]);
    });
  });

  describe('a run of events, as a bulk import sends them', () => {
    const followed = (follower: Member, followee: Member) => ({ type: 'follow.created' as const, payload: { followerId: follower.id, followeeId: followee.id }, key: followee.id });
    const reviewed = (author: Member, reviewId = newId()) => ({
      type: 'review.created' as const,
      payload: { reviewId, authorId: author.id, productId: null, productName: null, rating: 4, title: 'T', excerpt: 'E', created_at: new Date().toISOString() },
      key: reviewId,
    });
    const types = async (member: Member) => (await notificationsOf(svc, member, '?limit=50')).map((n) => [n.type, n.related_user?.id]);

    it('a run of follows tells each followee as one follow each would, blocks, mutes, repeats and emails included', async () => {
      const [cem, deniz, elif] = [await addMember(svc, 'Cem Demir'), await addMember(svc, 'Deniz Ak'), await addMember(svc, 'Elif Şahin')];
      await block(ayse, deniz);
      await svc.publish('mute.created', { muterId: ayse.id, mutedId: elif.id }, ayse.id, ayse.id);
      await svc.publish('follow.created', { followerId: cem.id, followeeId: burak.id });
      expect((await svc.http().put('/api/notifications/mark-all-read').set(burak.auth)).status).toBe(200);
      await svc.publish('follow.removed', { followerId: cem.id, followeeId: burak.id, wasPending: false });

      await publishRun(svc, [followed(burak, ayse), followed(cem, ayse), followed(deniz, ayse), followed(elif, ayse), followed(ayse, ayse), followed(cem, burak), followed(burak, ayse)]);

      // Burak's follow twice in the run: one notification, refreshed by the second.
      expect(await types(ayse)).toEqual([['new_follower', burak.id], ['new_follower', cem.id]]);
      // Cem's follow of Burak again: the one notification, unread again, pushed and emailed again.
      expect(await types(burak)).toEqual([['new_follower', cem.id]]);
      expect(await unreadCountOf(svc, burak)).toBe(1);
      expect(pushesTo(svc, burak).map((e) => e.notification.related_user?.id)).toEqual([cem.id, cem.id]);
      expect((await emailsTo(ayse)).map((e) => e.subject)).toEqual(['Burak Kaya started following you', 'Cem Demir started following you']);
      expect(await emailsTo(burak)).toHaveLength(2);
      // Each follow is stored: the followee's review reaches them (the muted too), not across the block.
      await postReview(ayse);
      for (const follower of [burak, cem, elif]) expect((await types(follower))[0]).toEqual(['new_review', ayse.id]);
      expect(await types(deniz)).toEqual([]);
    });

    it('a run of imported follows is told in the app and pushed, and emails nobody; a live follow in the same run still emails', async () => {
      const cem = await addMember(svc, 'Cem Demir');
      const imported = (follower: Member, followee: Member) => ({ ...followed(follower, followee), payload: { ...followed(follower, followee).payload, imported: true } });
      await publishRun(svc, [imported(burak, ayse), imported(cem, ayse), followed(cem, burak)]);
      expect(await types(ayse)).toEqual([['new_follower', cem.id], ['new_follower', burak.id]]);
      expect(pushesTo(svc, ayse)).toHaveLength(2);
      expect(await emailsTo(ayse)).toEqual([]);
      expect((await emailsTo(burak)).map((e) => e.subject)).toEqual(['Cem Demir started following you']);
    });

    it('a run of reviews tells each author\'s followers, in the reviews\' order, once per review', async () => {
      const [cem, deniz, elif] = [await addMember(svc, 'Cem Demir'), await addMember(svc, 'Deniz Ak'), await addMember(svc, 'Elif Şahin')];
      for (const [follower, followee] of [[cem, ayse], [cem, burak], [deniz, ayse], [elif, burak], [ayse, burak]]) await svc.publish('follow.created', { followerId: follower.id, followeeId: followee.id });
      await svc.publish('mute.created', { muterId: elif.id, mutedId: burak.id }, elif.id, elif.id);
      const [first, second, third] = [newId(), newId(), newId()];

      await publishRun(svc, [reviewed(ayse, first), reviewed(burak, second), reviewed(ayse, third), reviewed(ayse, third)]);

      const subjects = async (member: Member) => (await notificationsOf(svc, member, '?limit=50')).filter((n) => n.type === 'new_review').map((n) => n.related_user?.id);
      expect(await subjects(cem)).toEqual([ayse.id, burak.id, ayse.id]);
      expect(await subjects(deniz)).toEqual([ayse.id, ayse.id]);
      expect(await subjects(ayse)).toEqual([burak.id]);
      expect(await subjects(elif)).toEqual([]);
      expect(pushesTo(svc, cem).filter((e) => e.notification.type === 'new_review')).toHaveLength(3);
    });
  });

  describe('preferences and member cards', () => {
    const settings = (member: Member, push: boolean, email: boolean) =>
      svc.publish('user.settings_updated', {
        userId: member.id,
        notification_push: push,
        notification_email: email,
        privacy_profile: 'public',
        theme: 'system',
      });

    it('push off: the notification is stored and announced with push false', async () => {
      await settings(ayse, false, true);
      await like(svc, burak, ayse);
      expect(await notificationsOf(svc, ayse)).toHaveLength(1);
      expect(pushesTo(svc, ayse)).toEqual([expect.objectContaining({ push: false })]);
      await settings(ayse, true, true);
      await like(svc, burak, ayse);
      expect(pushesTo(svc, ayse).map((p) => p.push)).toEqual([false, true]);
    });

    it('email on: an email-worthy notification lands in the outbox, unsent, in English by default', async () => {
      await follow(burak, ayse);
      expect(await emailsTo(ayse)).toEqual([
        expect.objectContaining({
          to: ayse.email,
          subject: 'Burak Kaya started following you',
          body: expect.stringContaining('Hi Ayşe Yılmaz,'),
          sent_at: null,
          created_at: expect.any(String),
        }),
      ]);
    });

    it('writes in Turkish for a member who signed up in Turkish, and follows a language chosen in Settings', async () => {
      const elif = await addMember(svc, 'Elif Su', 'tr');
      await follow(burak, elif);
      expect(await emailsTo(elif)).toEqual([
        expect.objectContaining({ subject: 'Burak Kaya seni takip etmeye başladı', body: expect.stringContaining('Merhaba Elif Su,') }),
      ]);
      expect((await notificationsOf(svc, elif)).map((n) => n.message)).toEqual(['Burak Kaya seni takip etmeye başladı']);
      expect(pushesTo(svc, elif).map((p) => p.notification.message)).toEqual(['Burak Kaya seni takip etmeye başladı']);
      await svc.publish('user.settings_updated', { userId: elif.id, notification_push: true, notification_email: true, privacy_profile: 'public', theme: 'system', language: 'en' });
      expect((await notificationsOf(svc, elif)).map((n) => n.message)).toEqual(['Burak Kaya started following you']);
    });

    it('no email for an imported follow or follow request: both are in the app', async () => {
      await svc.publish('follow.created', { followerId: burak.id, followeeId: ayse.id, imported: true }, ayse.id, burak.id);
      const cem = await addMember(svc, 'Cem Demir');
      await svc.publish('follow.requested', { followerId: cem.id, followeeId: ayse.id, imported: true }, ayse.id, cem.id);
      expect((await notificationsOf(svc, ayse)).map((n) => n.type)).toEqual(['follow_request', 'new_follower']);
      expect(await emailsTo(ayse)).toEqual([]);
      await follow(cem, burak);
      expect(await emailsTo(burak)).toHaveLength(1);
    });

    it('no email for likes, nor for anything once notification_email is off', async () => {
      await like(svc, burak, ayse);
      await settings(ayse, true, false);
      await follow(burak, ayse);
      expect(await emailsTo(ayse)).toEqual([]);
      expect(await notificationsOf(svc, ayse)).toHaveLength(2);
    });

    it('shows the current name after user.updated, and a neutral one for a member not heard of yet', async () => {
      await like(svc, burak, ayse);
      await svc.publish('user.updated', {
        userId: burak.id,
        username: 'burakk',
        display_name: 'Burak K.',
        bio: '',
        profile_image_url: '/media/burak.png',
      });
      const stranger = newId();
      await svc.publish('review.liked', { reviewId: newId(), reviewAuthorId: ayse.id, userId: stranger, likeCount: 2 });
      const items = await notificationsOf(svc, ayse);
      expect(items.map((n) => [n.message, n.related_user])).toEqual([
        ['Someone liked your review', null],
        [
          'Burak K. liked your review',
          { id: burak.id, username: 'burakk', display_name: 'Burak K.', profile_image_url: '/media/burak.png' },
        ],
      ]);
    });
  });
});
