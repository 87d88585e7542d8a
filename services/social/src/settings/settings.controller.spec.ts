import { TestService } from '@app/testing';
import { Member, registerMember, startSocial } from '../social.fixture';

describe('settings (HTTP)', () => {
  let svc: TestService;
  let zeynep: Member;

  beforeAll(async () => {
    svc = await startSocial();
    zeynep = await registerMember(svc, 'Zeynep');
  });

  afterAll(() => svc.close());

  it('starts from the defaults', async () => {
    const res = await svc.http().get('/api/users/settings').set(zeynep.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      notification_email: true,
      notification_push: true,
      privacy_profile: 'public',
      theme: 'system',
      language: 'en',
    });
  });

  it('starts a newcomer in the language they signed up in', async () => {
    const id = 'newcomer-tr';
    await svc.publish('user.registered', { userId: id, username: 'yeni_uye', email: 'yeni@example.com', display_name: 'Yeni', name: 'Yeni', profile_image_url: null, created_at: new Date().toISOString(), language: 'tr' });
    const res = await svc.http().get('/api/users/settings').set(svc.authHeader({ id, username: 'yeni_uye' }));
    expect(res.body.data.language).toBe('tr');
  });

  it('stores the language, returns it and announces it (emails and notifications are written in it)', async () => {
    const res = await svc.http().put('/api/users/settings').set(zeynep.auth).send({ language: 'tr' });
    expect(res.status).toBe(200);
    expect(res.body.data.language).toBe('tr');
    expect((await svc.http().get('/api/users/settings').set(zeynep.auth)).body.data.language).toBe('tr');
    await svc.settle();
    expect(svc.emitted('user.settings_updated').at(-1)).toMatchObject({ userId: zeynep.id, language: 'tr' });
    await svc.http().put('/api/users/settings').set(zeynep.auth).send({ language: 'en' });
  });

  it('changes only what a partial PUT names and announces the whole set', async () => {
    const res = await svc.http().put('/api/users/settings').set(zeynep.auth).send({ theme: 'dark' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ notification_email: true, notification_push: true, privacy_profile: 'public', theme: 'dark', language: 'en' });

    const second = await svc.http().put('/api/users/settings').set(zeynep.auth).send({ notification_push: false, privacy_profile: 'friends' });
    expect(second.body.data).toEqual({ notification_email: true, notification_push: false, privacy_profile: 'friends', theme: 'dark', language: 'en' });

    const stored = await svc.http().get('/api/users/settings').set(zeynep.auth);
    expect(stored.body.data).toEqual(second.body.data);
    await svc.settle();
    expect(svc.emitted('user.settings_updated').at(-1)).toEqual({ userId: zeynep.id, ...second.body.data });
  });

  it.each([
    [{ theme: 'blue' }, 'theme'],
    [{ privacy_profile: 'secret' }, 'privacy_profile'],
    [{ notification_email: 'yes' }, 'notification_email'],
    [{ language: 'de' }, 'language'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await svc.http().put('/api/users/settings').set(zeynep.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('needs a token', async () => {
    expect((await svc.http().get('/api/users/settings')).status).toBe(401);
    expect((await svc.http().put('/api/users/settings').send({ theme: 'dark' })).status).toBe(401);
  });

  it('answers 404 for a token whose member has no profile', async () => {
    const res = await svc.http().get('/api/users/settings').set(svc.authHeader({ id: 'ghost', username: 'ghost' }));
    expect(res.status).toBe(404);
  });
});
