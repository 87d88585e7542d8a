import { TestService } from '@app/testing';
import { Member, registerMember, startSocial } from '../social.fixture';

describe('mutes (HTTP)', () => {
  let svc: TestService;
  let ali: Member;
  let burak: Member;

  beforeAll(async () => {
    svc = await startSocial();
    ali = await registerMember(svc, 'Ali');
    burak = await registerMember(svc, 'Burak');
    await svc.http().post(`/api/follows/users/${burak.id}`).set(ali.auth);
  });

  afterAll(() => svc.close());

  it('mutes once however often asked: one mute.created, follows untouched, the muted side sees nothing', async () => {
    const res = await svc.http().post(`/api/users/${burak.id}/mute`).set(ali.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'User muted', data: { muted: true } });
    expect((await svc.http().post(`/api/users/${burak.id}/mute`).set(ali.auth)).status).toBe(200);
    await svc.settle();
    expect(svc.emitted('mute.created')).toEqual([{ muterId: ali.id, mutedId: burak.id }]);
    expect((await svc.http().get(`/api/follows/status/${burak.id}`).set(ali.auth)).body.data).toMatchObject({ isFollowing: true });
    // Silent: Burak's status of Ali and Ali's profile carry no trace of the mute.
    const seenByBurak = await svc.http().get(`/api/follows/status/${ali.id}`).set(burak.auth);
    expect(JSON.stringify(seenByBurak.body)).not.toMatch(/mute/i);
    const profile = await svc.http().get(`/api/users/profile/${ali.username}`).set(burak.auth);
    expect(JSON.stringify(profile.body)).not.toMatch(/mute/i);
    expect((await svc.http().get('/api/users/mutes').set(burak.auth)).body.data).toEqual([]);
  });

  it('lists mutes as paged cards', async () => {
    const list = await svc.http().get('/api/users/mutes?page=1&limit=10').set(ali.auth);
    expect(list.body.data).toEqual([
      { id: burak.id, username: burak.username, display_name: 'Burak', profile_image_url: null, bio: '', since: expect.any(String) },
    ]);
    expect(list.body.meta).toMatchObject({ total: 1, page: 1, limit: 10 });
  });

  it('unmutes once however often asked: one mute.removed, the list is empty again', async () => {
    const res = await svc.http().delete(`/api/users/${burak.id}/mute`).set(ali.auth);
    expect(res.body).toEqual({ success: true, message: 'User unmuted', data: { muted: false } });
    const twice = await svc.http().delete(`/api/users/${burak.id}/mute`).set(ali.auth);
    expect(twice.status).toBe(200);
    await svc.settle();
    expect(svc.emitted('mute.removed')).toEqual([{ muterId: ali.id, mutedId: burak.id }]);
    expect((await svc.http().get('/api/users/mutes').set(ali.auth)).body.meta.total).toBe(0);
  });

  it('refuses muting oneself (400), unknown users (404), bad ids and queries (400), no token (401)', async () => {
    const self = await svc.http().post(`/api/users/${ali.id}/mute`).set(ali.auth);
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ success: false, message: 'You cannot mute yourself', code: 'CANNOT_MUTE_SELF' });
    expect((await svc.http().delete(`/api/users/${ali.id}/mute`).set(ali.auth)).status).toBe(400);
    const unknown = await svc.http().post('/api/users/nobody/mute').set(ali.auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('USER_NOT_FOUND');
    expect((await svc.http().delete('/api/users/nobody/mute').set(ali.auth)).status).toBe(404);
    expect((await svc.http().post(`/api/users/${'x'.repeat(65)}/mute`).set(ali.auth)).status).toBe(400);
    expect((await svc.http().get('/api/users/mutes?limit=abc').set(ali.auth)).status).toBe(400);
    expect((await svc.http().get('/api/users/mutes?sort=x').set(ali.auth)).status).toBe(400);
    expect((await svc.http().post(`/api/users/${burak.id}/mute`)).status).toBe(401);
    expect((await svc.http().get('/api/users/mutes')).status).toBe(401);
  });
});
