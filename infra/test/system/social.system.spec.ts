import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

interface Member {
  id: string;
  username: string;
  auth: string;
}

describe('social graph through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let a: Member;
  let b: Member;
  let c: Member;

  const api = () => request(stack.url);

  async function register(email: string, name: string): Promise<Member> {
    const res = await api().post('/api/auth/register').send({ email, name, password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    return { id: res.body.data.user.id, username: res.body.data.user.username, auth: `Bearer ${res.body.data.token}` };
  }

  const profile = async (viewer: Member, of: Member) => {
    const res = await api().get(`/api/users/profile/${of.username}?_t=${Date.now()}`).set('Authorization', viewer.auth);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const status = async (viewer: Member, of: Member) => {
    const res = await api().get(`/api/follows/status/${of.id}`).set('Authorization', viewer.auth);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    a = await register('a@example.com', 'Arda Aksoy');
    b = await register('b@example.com', 'Berk Bulut');
    c = await register('c@example.com', 'Ceren Çınar');
    await stack.settle();
    const priv = await api().put('/api/users/settings').set('Authorization', c.auth).send({ privacy_profile: 'private' });
    expect(priv.status).toBe(200);
    await stack.settle();
  });

  afterAll(() => stack.close());

  it('A follows public B: data.status following and both counters change', async () => {
    const res = await api().post(`/api/follows/users/${b.id}`).set('Authorization', a.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'following' });
    expect(await profile(a, b)).toMatchObject({ followers_count: 1, follow_status: { isFollowing: true } });
    expect((await profile(a, a)).following_count).toBe(1);
    const again = await api().post(`/api/follows/users/${b.id}`).set('Authorization', a.auth);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('You are already following this user');
  });

  it('A requests private C: pending; C accepts; A now follows', async () => {
    const asked = await api().post(`/api/follows/users/${c.id}`).set('Authorization', a.auth);
    expect(asked.body).toMatchObject({ success: true, message: 'Follow request sent', data: { status: 'pending' } });
    expect(await status(a, c)).toMatchObject({ isFollowing: false, isPending: true });
    expect((await api().get(`/api/follows/followers/${c.id}`).set('Authorization', a.auth)).status).toBe(403);

    const incoming = await api().get('/api/follows/requests').set('Authorization', c.auth);
    expect(incoming.body.data.map((r: { id: string }) => r.id)).toEqual([a.id]);
    const accepted = await api().post(`/api/follows/requests/${a.id}/accept`).set('Authorization', c.auth);
    expect(accepted.status).toBe(200);

    expect(await status(a, c)).toMatchObject({ isFollowing: true, isPending: false });
    expect(await profile(a, c)).toMatchObject({ followers_count: 1, can_view_content: true });
    const followers = await api().get(`/api/follows/followers/${c.id}`).set('Authorization', a.auth);
    expect(followers.body.data.map((r: { id: string }) => r.id)).toEqual([a.id]);
  });

  it('B blocks A: follows gone both ways, A cannot follow, both see the block', async () => {
    await api().post(`/api/follows/users/${a.id}`).set('Authorization', b.auth);
    expect((await profile(b, a)).follow_status).toMatchObject({ isFollowing: true, isFollowed: true });

    const blocked = await api().post(`/api/users/${a.id}/block`).set('Authorization', b.auth);
    expect(blocked.status).toBe(200);

    expect(await profile(b, b)).toMatchObject({ followers_count: 0, following_count: 0 });
    expect((await profile(a, a)).following_count).toBe(1); // still follows C
    expect((await profile(a, a)).followers_count).toBe(0);

    const refused = await api().post(`/api/follows/users/${b.id}`).set('Authorization', a.auth);
    expect(refused.status).toBe(403);
    expect(await status(b, a)).toEqual({ isFollowing: false, isFollowed: false, isPending: false, isBlocked: true, isBlockedBy: false });
    expect(await status(a, b)).toEqual({ isFollowing: false, isFollowed: false, isPending: false, isBlocked: false, isBlockedBy: true });
    expect((await profile(a, b)).follow_status.isBlockedBy).toBe(true);

    const search = await api().get('/api/users/search?search=berk').set('Authorization', a.auth);
    expect(search.body.data).toEqual([]);
  });

  it('renames flow to auth through user.updated', async () => {
    const res = await api().put('/api/users/profile').set('Authorization', c.auth).send({ username: 'ceren', bio: 'Film cameras' });
    expect(res.status).toBe(200);
    await stack.settle();
    const me = await api().get('/api/auth/me').set('Authorization', c.auth);
    expect(me.body.data.username).toBe('ceren');
  });
});
