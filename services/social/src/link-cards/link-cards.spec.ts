import { TestService } from '@app/testing';
import { registerMember, startSocial } from '../social.fixture';

describe('link cards of profiles (issue 30 §4)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startSocial();
  });
  afterAll(() => svc.close());

  it("answers a public member's card to anyone, with the bio and counts", async () => {
    const ayse = await registerMember(svc, 'Ayse Card');
    await svc.http().put('/api/users/profile').set(ayse.auth).send({ bio: 'Coffee & keyboards.' });
    const res = await svc.http().get(`/api/cards/users/${ayse.username}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      type: 'profile',
      title: `Ayse Card (@${ayse.username})`,
      description: 'Coffee & keyboards. · 0 reviews, 0 followers',
      image: null,
      image_alt: null,
      rating: null,
      person: { name: 'Ayse Card', username: ayse.username, bio: 'Coffee & keyboards.' },
    });
  });

  it.each(['friends', 'private'] as const)('has no card for a %s profile (403: its page says it is private), and says nothing of it', async (privacy) => {
    const hidden = await registerMember(svc, `Hidden ${privacy}`, privacy);
    await svc.http().put('/api/users/profile').set(hidden.auth).send({ bio: 'secret bio' });
    const res = await svc.http().get(`/api/cards/users/${hidden.username}`);
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('secret');
    expect((await svc.http().get('/api/cards/users/nobody_here')).status).toBe(404);
  });
});
