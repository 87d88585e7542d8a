import { createTestService, TestService } from '@app/testing';
import { messagingService } from '../messaging.service-definition';
import { registerMember, TestMember } from '../messaging.fixture';

describe('messaging: messages (HTTP)', () => {
  let svc: TestService;
  let ayse: TestMember;
  let burak: TestMember;
  let cem: TestMember;
  let conversationId: string;

  beforeAll(async () => {
    svc = await createTestService(messagingService);
    [ayse, burak, cem] = await Promise.all(['ayse', 'burak', 'cem'].map((u) => registerMember(svc, u)));
    const res = await svc.http().post('/api/messages/conversations').set(ayse.auth).send({ memberIds: [burak.id] });
    conversationId = res.body.data.id;
  });

  afterAll(() => svc.close());

  const path = (id = conversationId) => `/api/messages/conversations/${id}/messages`;
  const send = (member: TestMember, body: unknown, id?: string) =>
    svc.http().post(path(id)).set(member.auth).send(body as object);

  it('stores the message trimmed, returns it (201) and announces message.sent to every member', async () => {
    const res = await send(ayse, { content: '  Selam Burak!  \n' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      conversation_id: conversationId,
      sender_id: ayse.id,
      sender: { id: ayse.id, username: 'ayse', display_name: 'Ayse', profile_image_url: null },
      content: 'Selam Burak!',
      created_at: expect.any(String),
      edited_at: null,
      deleted: false,
      reactions: [],
      attachments: [],
    });
    await svc.settle();
    expect(svc.emitted('message.sent')).toEqual([
      {
        messageId: res.body.data.id,
        conversationId,
        senderId: ayse.id,
        memberIds: [ayse.id, burak.id],
        message: res.body.data,
      },
    ]);
  });

  it.each([
    [{}, 'content'],
    [{ content: '' }, 'content'],
    [{ content: '   \n\t ' }, 'content'],
    [{ content: 42 }, 'content'],
    [{ content: { $gt: '' } }, 'content'],
    [{ content: 'x'.repeat(2001) }, 'content'],
    [{ content: 'hi', sender_id: 'someone' }, 'sender_id'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await send(ayse, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('says why an empty or too long message is refused', async () => {
    expect((await send(ayse, { content: '   ' })).body.message).toBe('Message cannot be empty');
    expect((await send(ayse, { content: 'x'.repeat(2001) })).body.message).toBe('Message must be at most 2000 characters');
  });

  it('accepts exactly 2000 characters, counted after trimming', async () => {
    const res = await send(burak, { content: `  ${'y'.repeat(2000)}  ` });
    expect(res.status).toBe(201);
    expect(res.body.data.content).toHaveLength(2000);
  });

  it('refuses non-members (403) and missing conversations (404), on read and write', async () => {
    const write = await send(cem, { content: 'let me in' });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ success: false, message: 'You are not a member of this conversation', code: 'NOT_IN_CONVERSATION' });
    expect((await svc.http().get(path()).set(cem.auth)).status).toBe(403);
    expect((await send(cem, { content: 'hello' }, 'missing')).status).toBe(404);
    expect((await svc.http().get(path('missing')).set(cem.auth)).status).toBe(404);
    expect((await svc.http().get(path())).status).toBe(401);
  });

  it('pages messages: page 1 holds the newest 50, oldest first', async () => {
    const other = await svc.http().post('/api/messages/conversations').set(cem.auth).send({ memberIds: [ayse.id] });
    const id = other.body.data.id as string;
    for (let i = 1; i <= 55; i++) await send(i % 2 ? cem : ayse, { content: `m${i}` }, id);

    const first = await svc.http().get(path(id)).set(ayse.auth);
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ total: 55, page: 1, limit: 50, totalPages: 2 });
    expect(first.body.data.map((m: { content: string }) => m.content)).toEqual(
      Array.from({ length: 50 }, (_, i) => `m${i + 6}`),
    );
    const second = await svc.http().get(`${path(id)}?page=2&limit=50`).set(ayse.auth);
    expect(second.body.data.map((m: { content: string }) => m.content)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect((await svc.http().get(`${path(id)}?page=0`).set(ayse.auth)).status).toBe(400);
    expect((await svc.http().get(`${path(id)}?limit=101`).set(ayse.auth)).status).toBe(400);
  });

  it('ends a one-to-one across a block: neither side can write', async () => {
    await svc.publish('block.created', { blockerId: burak.id, blockedId: ayse.id });
    for (const member of [ayse, burak]) {
      const res = await send(member, { content: 'still there?' });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You cannot message this user');
    }
    await svc.publish('block.removed', { blockerId: burak.id, blockedId: ayse.id });
    expect((await send(ayse, { content: 'back' })).status).toBe(201);
  });
});
