import { EventType, Language, NotificationView } from '@app/contracts';
import { EventBus } from '@app/bus';
import { MailOutboxWorker } from '@app/platform';
import { probeStore, StoreProbe, TestService } from '@app/testing';
import { newId } from '@app/store';

/** A member as the tests see them: known to the service through user.registered. */
export interface Member {
  id: string;
  username: string;
  name: string;
  email: string;
  auth: { Authorization: string };
}

export async function addMember(svc: TestService, name: string, language?: Language): Promise<Member> {
  const id = newId();
  const username = `${name.split(' ')[0].toLowerCase()}_${id.slice(-6)}`;
  const email = `${username}@example.com`;
  await svc.publish('user.registered', {
    userId: id,
    username,
    email,
    display_name: name,
    name,
    profile_image_url: null,
    created_at: new Date().toISOString(),
    ...(language ? { language } : {}),
  });
  return { id, username, name, email, auth: svc.authHeader({ id, username }) };
}

/** `liker` likes a review of `author` (a new review unless one is named). */
export async function like(svc: TestService, liker: Member, author: Member, reviewId = newId()): Promise<string> {
  await svc.publish('review.liked', { reviewId, reviewAuthorId: author.id, userId: liker.id, likeCount: 1 }, reviewId, liker.id);
  return reviewId;
}

export async function notificationsOf(svc: TestService, member: Member, query = ''): Promise<NotificationView[]> {
  const res = await svc.http().get(`/api/notifications${query}`).set(member.auth);
  if (res.status !== 200) throw new Error(`GET /notifications answered ${res.status}`);
  return res.body.data as NotificationView[];
}

export async function unreadCountOf(svc: TestService, member: Member): Promise<number> {
  const res = await svc.http().get('/api/notifications/unread-count').set(member.auth);
  return res.body.data.unread_count as number;
}

/** notification.created events this service emitted for one recipient. */
export function pushesTo(svc: TestService, member: Member) {
  return svc.emitted('notification.created').filter((e) => e.recipientId === member.id);
}

/**
 * Events published in one tick, as a bulk import sends them: the bus hands them to the service as
 * one group, and each run of one type to an `OnEventBatch` handler as one array.
 */
export async function publishRun(svc: TestService, events: { type: EventType; payload: unknown; key?: string }[]): Promise<void> {
  await Promise.all(
    events.map(({ type, payload, key }) =>
      svc.transport.publish({ id: newId(), type, version: 1, occurredAt: new Date().toISOString(), actorId: null, key: key ?? newId(), payload } as never),
    ),
  );
  await svc.settle();
}

/** An author with five followers, and a probe of the store that counts what an act costs (the cost specs). */
export interface ProbedFollowing {
  author: Member;
  followers: Member[];
  probe: StoreProbe;
  /**
   * The reads and writes of `act` alone: rows published before it are dropped first, and the timed
   * work of the service waits until it is counted: the bus's drop of the rows it publishes (100 ms),
   * its outbox relay and the mail outbox's pass (every second). On a slow machine each fired inside
   * a measurement.
   */
  measure(act: () => Promise<unknown>): Promise<{ reads: number; writes: number }>;
}

export async function probedFollowing(svc: TestService): Promise<ProbedFollowing> {
  const author = await addMember(svc, 'Author');
  const followers: Member[] = [];
  for (let i = 0; i < 5; i++) followers.push(await addMember(svc, `Follower ${i}`));
  for (const f of followers) await svc.publish('follow.created', { followerId: f.id, followeeId: author.id });
  const probe = probeStore(svc.store);
  const measure = async (act: () => Promise<unknown>) => {
    const bus = svc.app.get(EventBus);
    await bus.dropPublished();
    const held = [
      jest.spyOn(bus as unknown as { scheduleDrop(): void }, 'scheduleDrop').mockImplementation(() => undefined),
      jest.spyOn(bus, 'relay').mockResolvedValue(0),
      jest.spyOn(svc.app.get(MailOutboxWorker), 'sendDue').mockResolvedValue(undefined),
    ];
    probe.reset();
    try {
      await act();
      return { reads: probe.reads, writes: probe.writes };
    } finally {
      for (const spy of held) spy.mockRestore();
      await bus.dropPublished();
    }
  };
  return { author, followers, probe, measure };
}
