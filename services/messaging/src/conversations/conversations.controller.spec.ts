import { createTestService, TestService } from '@app/testing';
import { messagingService } from '../messaging.service-definition';
import { registerMember, TestMember } from '../messaging.fixture';

describe('messaging: conversations (HTTP)', () => {
  let svc: TestService;
  let ayse: TestMember;
  let burak: TestMember;
  let cem: TestMember;
  let deniz: TestMember;

  beforeAll(async () => {
    svc = await createTestService(messagingService);
    [ayse, burak, cem, deniz] = await Promise.all(['ayse', 'burak', 'cem', 'deniz'].map((u) => registerMember(svc, u)));
  });

  afterAll(() => svc.close());

  const create = (member: TestMember, body: unknown) =>
    svc.http().post('/api/messages/conversations').set(member.auth).send(body as object);
  const list = (member: TestMember) => svc.http().get('/api/messages/conversations').set(member.auth);
  const send = (member: TestMember, conversationId: string, content: unknown) =>
    svc.http().post(`/api/messages/conversations/${conversationId}/messages`).set(member.auth).send({ content });

  it('refuses every route without a token', async () => {
    expect((await svc.http().get('/api/messages/conversations')).status).toBe(401);
    expect((await svc.http().post('/api/messages/conversations').send({ memberIds: [burak.id] })).status).toBe(401);
    expect((await svc.http().get('/api/messages/conversations/x/members')).status).toBe(401);
    expect((await svc.http().post('/api/messages/conversations/x/read')).status).toBe(401);
  });

  it('creates a one-to-one: 201 with both members, and announces conversation.created', async () => {
    const res = await create(ayse, { memberIds: [burak.id] });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const conv = res.body.data;
    expect(conv).toMatchObject({ is_group: false, name: null, squad_id: null, last_message: null, unread_count: 0 });
    expect(conv.members.map((m: { id: string }) => m.id)).toEqual([ayse.id, burak.id]);
    expect(conv.other_members).toEqual([
      { id: burak.id, username: 'burak', display_name: 'Burak', profile_image_url: null },
    ]);
    expect(conv.created_at).toEqual(conv.updated_at);
    await svc.settle();
    expect(svc.emitted('conversation.created')).toContainEqual({
      conversationId: conv.id,
      memberIds: [ayse.id, burak.id],
      createdBy: ayse.id,
      squadId: null,
    });
  });

  it('returns the existing one-to-one (200) when either side starts it again', async () => {
    const first = await create(ayse, { memberIds: [burak.id] });
    const again = await create(burak, { memberIds: [ayse.id] });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.other_members.map((m: { id: string }) => m.id)).toEqual([ayse.id]);
    const created = svc.emitted('conversation.created').filter((e) => e.conversationId === first.body.data.id);
    expect(created).toHaveLength(1);
  });

  it('creates a group when several users are picked, every time', async () => {
    const a = await create(ayse, { memberIds: [burak.id, cem.id] });
    const b = await create(ayse, { memberIds: [burak.id, cem.id] });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.data.id).not.toBe(b.body.data.id);
    expect(a.body.data.is_group).toBe(true);
    expect(a.body.data.other_members.map((m: { id: string }) => m.id)).toEqual([burak.id, cem.id]);
  });

  it('ignores the creator among the picked ids', async () => {
    const res = await create(cem, { memberIds: [cem.id, deniz.id] });
    expect(res.status).toBe(201);
    expect(res.body.data.is_group).toBe(false);
    expect(res.body.data.members.map((m: { id: string }) => m.id)).toEqual([cem.id, deniz.id]);
  });

  it.each([
    [{}, 'memberIds'],
    [{ memberIds: [] }, 'memberIds'],
    [{ memberIds: 'abc' }, 'memberIds'],
    [{ memberIds: [42] }, 'memberIds'],
    [{ memberIds: [''] }, 'memberIds'],
    [{ memberIds: [{ $ne: null }] }, 'memberIds'],
    [{ memberIds: ['x'.repeat(65)] }, 'memberIds'],
    [{ memberIds: Array.from({ length: 50 }, (_, i) => `u${i}`) }, 'memberIds'],
    [{ memberIds: ['a'], name: 'extra' }, 'name'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await create(ayse, body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('refuses a user picked twice', async () => {
    const res = await create(ayse, { memberIds: [burak.id, burak.id] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Each user can be selected only once');
  });

  it('refuses a conversation with oneself only', async () => {
    const res = await create(ayse, { memberIds: [ayse.id] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Select at least one user other than yourself');
  });

  it('refuses unknown users', async () => {
    const res = await create(ayse, { memberIds: [burak.id, 'no-such-user'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'Unknown user: no-such-user', errors: [{ field: 'memberIds' }] });
  });

  it('refuses a conversation across a block, either way, and allows it again after unblock', async () => {
    const eda = await registerMember(svc, 'eda');
    await svc.publish('block.created', { blockerId: eda.id, blockedId: deniz.id });
    const byBlocked = await create(deniz, { memberIds: [eda.id] });
    const byBlocker = await create(eda, { memberIds: [deniz.id] });
    const inGroup = await create(deniz, { memberIds: [ayse.id, eda.id] });
    for (const res of [byBlocked, byBlocker, inGroup]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: 'You cannot start a conversation with this user', code: 'USER_BLOCKED' });
    }
    await svc.publish('block.removed', { blockerId: eda.id, blockedId: deniz.id });
    expect((await create(deniz, { memberIds: [eda.id] })).status).toBe(201);
  });

  it('lists only the viewer’s conversations, most recently updated first, re-sorting on send', async () => {
    const fresh = await registerMember(svc, 'fatma');
    const withAyse = (await create(fresh, { memberIds: [ayse.id] })).body.data.id as string;
    const withBurak = (await create(fresh, { memberIds: [burak.id] })).body.data.id as string;
    let res = await list(fresh);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([withBurak, withAyse]);
    expect(res.body.meta).toMatchObject({ total: 2, page: 1 });

    await new Promise((r) => setTimeout(r, 5));
    await send(ayse, withAyse, 'Merhaba!');
    res = await list(fresh);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([withAyse, withBurak]);
    const top = res.body.data[0];
    expect(top.last_message).toEqual({
      id: expect.any(String),
      content: 'Merhaba!',
      sender: { id: ayse.id, username: 'ayse', display_name: 'Ayse', profile_image_url: null },
      created_at: top.updated_at,
      deleted: false,
      images: 0,
    });
    expect(Object.keys(top).sort()).toEqual(
      ['created_at', 'id', 'is_group', 'last_message', 'members', 'name', 'other_members', 'other_read_at', 'squad_id', 'unread_count', 'updated_at'],
    );
    const others = await list(deniz);
    expect(others.body.data.map((c: { id: string }) => c.id)).not.toContain(withAyse);
  });

  it('counts unread messages from others, clears them on read and when the member writes', async () => {
    const gul = await registerMember(svc, 'gul');
    const id = (await create(gul, { memberIds: [cem.id] })).body.data.id as string;
    const unreadOf = async (m: TestMember) =>
      (await list(m)).body.data.find((c: { id: string }) => c.id === id).unread_count as number;
    await send(cem, id, 'one');
    await send(cem, id, 'two');
    expect(await unreadOf(gul)).toBe(2);
    expect(await unreadOf(cem)).toBe(0);

    const read = await svc.http().post(`/api/messages/conversations/${id}/read`).set(gul.auth);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ conversation_id: id, unread_count: 0 });
    expect(await unreadOf(gul)).toBe(0);
    // Reading twice never goes below zero.
    await svc.http().post(`/api/messages/conversations/${id}/read`).set(gul.auth);
    expect(await unreadOf(gul)).toBe(0);

    await send(cem, id, 'three');
    expect(await unreadOf(gul)).toBe(1);
    await send(gul, id, 'reply');
    expect(await unreadOf(gul)).toBe(0);
    expect(await unreadOf(cem)).toBe(1);
  });

  it('pages the list with page and limit, and refuses unknown query params', async () => {
    const res = await svc.http().get('/api/messages/conversations?page=1&limit=1').set(ayse.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.meta.limit).toBe(1);
    expect(res.body.meta.total).toBeGreaterThan(1);
    expect((await svc.http().get('/api/messages/conversations?limit=0').set(ayse.auth)).status).toBe(400);
    expect((await svc.http().get('/api/messages/conversations?sort=x').set(ayse.auth)).status).toBe(400);
  });

  it('lists the members to members only (403 otherwise, 404 when missing)', async () => {
    const id = (await create(ayse, { memberIds: [burak.id] })).body.data.id as string;
    const ok = await svc.http().get(`/api/messages/conversations/${id}/members`).set(burak.auth);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual([
      { id: ayse.id, username: 'ayse', display_name: 'Ayse', profile_image_url: null },
      { id: burak.id, username: 'burak', display_name: 'Burak', profile_image_url: null },
    ]);
    const outsider = await svc.http().get(`/api/messages/conversations/${id}/members`).set(cem.auth);
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual({ success: false, message: 'You are not a member of this conversation', code: 'NOT_IN_CONVERSATION' });
    expect((await svc.http().get('/api/messages/conversations/nope/members').set(cem.auth)).status).toBe(404);
  });

  it('lets only members mark a conversation read', async () => {
    const id = (await create(ayse, { memberIds: [burak.id] })).body.data.id as string;
    expect((await svc.http().post(`/api/messages/conversations/${id}/read`).set(cem.auth)).status).toBe(403);
    expect((await svc.http().post('/api/messages/conversations/nope/read').set(cem.auth)).status).toBe(404);
  });

  it('shows renamed members from user.updated', async () => {
    const id = (await create(ayse, { memberIds: [burak.id] })).body.data.id as string;
    await svc.publish('user.updated', {
      userId: burak.id,
      username: 'burak_k',
      display_name: 'Burak K.',
      bio: '',
      profile_image_url: 'https://example.com/b.png',
    });
    const res = await svc.http().get(`/api/messages/conversations/${id}/members`).set(ayse.auth);
    expect(res.body.data[1]).toEqual({
      id: burak.id,
      username: 'burak_k',
      display_name: 'Burak K.',
      profile_image_url: 'https://example.com/b.png',
    });
  });
});
