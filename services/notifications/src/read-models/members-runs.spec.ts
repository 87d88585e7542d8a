import { EventBus } from '@app/bus';
import { newId } from '@app/store';
import { createTestService, probeStore, StoreProbe, TestService } from '@app/testing';
import { publishRun } from '../notifications.fixture';
import { notificationsService } from '../notifications.service-definition';
import { membersCollection } from './member.collection';

const registration = (userId: string, language?: 'en' | 'tr') => ({
  userId,
  username: `m_${userId.slice(-8)}`,
  email: `${userId}@example.com`,
  display_name: `Member ${userId.slice(-4)}`,
  name: 'Member',
  profile_image_url: null,
  created_at: new Date().toISOString(),
  ...(language && { language }),
});

/**
 * A bulk import's run of registrations: the member's card and this service's own fields (email,
 * language) are one row, written whole by one insert whatever the run's length (a second handler
 * updating the first one's rows one by one made the members' import phase the slowest of all).
 */
describe('notifications: a run of registrations', () => {
  let svc: TestService;
  let probe: StoreProbe;

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
    probe = probeStore(svc.store);
  });

  afterAll(async () => {
    probe.stop();
    await svc.close();
  });

  const run = async (ids: string[], language?: 'en' | 'tr') => {
    await svc.app.get(EventBus).dropPublished();
    probe.reset();
    await publishRun(svc, ids.map((id) => ({ type: 'user.registered' as const, payload: registration(id, language), key: id })));
    return { reads: probe.reads, writes: probe.writes };
  };

  // The group's inbox lookup and the members' rows; the rows, the inbox rows.
  it('costs 2 reads and 2 writes, 2 members or 20', async () => {
    const ids = Array.from({ length: 20 }, () => newId());
    expect([await run([newId(), newId()]), await run(ids, 'tr')]).toEqual([{ reads: 2, writes: 2 }, { reads: 2, writes: 2 }]);
    const row = await svc.store.collection(membersCollection).findById(ids[7]);
    expect(row).toEqual({
      _id: ids[7],
      email: `${ids[7]}@example.com`,
      language: 'tr',
      username: `m_${ids[7].slice(-8)}`,
      display_name: `Member ${ids[7].slice(-4)}`,
      profile_image_url: null,
      card_at: expect.any(String),
    });
  });

  it("keeps a row's preferences that arrived first, and a deleted member's tombstone as it is", async () => {
    const [early, gone, fresh] = [newId(), newId(), newId()];
    const members = svc.store.collection(membersCollection);
    await svc.publish('user.settings_updated', { userId: early, notification_push: false, notification_email: true, privacy_profile: 'public', theme: 'system' });
    await svc.publish('user.deleted', { userId: gone });
    await run([early, gone, fresh]);
    expect(await members.findById(early)).toMatchObject({ email: `${early}@example.com`, notification_push: false, notification_email: true, username: `m_${early.slice(-8)}` });
    expect(await members.findById(gone)).toEqual(expect.objectContaining({ deleted: true }));
    expect((await members.findById(gone))?.email).toBeUndefined();
    expect(await members.findById(fresh)).toMatchObject({ email: `${fresh}@example.com`, username: `m_${fresh.slice(-8)}` });
  });
});
