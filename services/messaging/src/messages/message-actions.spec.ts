import { createTestService, TestService } from '@app/testing';
import { ConversationView, isReactionEmoji } from '@app/contracts';
import { messagingService } from '../messaging.service-definition';
import { registerMember, TestMember } from '../messaging.fixture';

describe('messaging: edit, delete and react to a message (HTTP)', () => {
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

  const send = async (member: TestMember, content: string): Promise<string> => {
    const res = await svc.http().post(`/api/messages/conversations/${conversationId}/messages`).set(member.auth).send({ content });
    expect(res.status).toBe(201);
    return res.body.data.id;
  };
  const page = async (member: TestMember) =>
    (await svc.http().get(`/api/messages/conversations/${conversationId}/messages`).set(member.auth)).body.data as Array<Record<string, unknown>>;
  const conversation = async (member: TestMember) =>
    ((await svc.http().get('/api/messages/conversations').set(member.auth)).body.data as ConversationView[]).find(
      (c) => c.id === conversationId,
    )!;
  const react = (member: TestMember, id: string, emoji: unknown, method: 'post' | 'delete' = 'post') =>
    svc.http()[method](`/api/messages/${id}/reactions`).set(member.auth).send({ emoji });

  describe('PUT /messages/:id', () => {
    it('changes the sender own text (trimmed), marks it edited, follows the preview and announces message.edited', async () => {
      const id = await send(ayse, 'Selam Brak');
      const res = await svc.http().put(`/api/messages/${id}`).set(ayse.auth).send({ content: '  Selam Burak  ' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id, content: 'Selam Burak', edited_at: expect.any(String), deleted: false });
      expect((await page(burak)).find((m) => m.id === id)).toMatchObject({ content: 'Selam Burak', edited_at: res.body.data.edited_at });
      expect((await conversation(burak)).last_message).toMatchObject({ id, content: 'Selam Burak', deleted: false });
      await svc.settle();
      expect(svc.emitted('message.edited').at(-1)).toEqual({
        messageId: id,
        conversationId,
        senderId: ayse.id,
        memberIds: [ayse.id, burak.id],
        content: 'Selam Burak',
        editedAt: res.body.data.edited_at,
      });
    });

    it('refuses another member message (403), a missing one (404) and bad text (400, same rule as sending)', async () => {
      const id = await send(ayse, 'mine');
      const other = await svc.http().put(`/api/messages/${id}`).set(burak.auth).send({ content: 'hijack' });
      expect(other.status).toBe(403);
      expect(other.body).toMatchObject({ success: false, code: 'NOT_MESSAGE_SENDER' });
      expect((await svc.http().put('/api/messages/missing').set(ayse.auth).send({ content: 'x' })).status).toBe(404);
      for (const [body, message] of [
        [{ content: '   ' }, 'Message cannot be empty'],
        [{ content: 'x'.repeat(2001) }, 'Message must be at most 2000 characters'],
        [{ content: { $gt: '' } }, undefined],
        [{ content: 'ok', sender_id: burak.id }, undefined],
      ] as const) {
        const res = await svc.http().put(`/api/messages/${id}`).set(ayse.auth).send(body);
        expect(res.status).toBe(400);
        expect(res.body.errors.length).toBeGreaterThan(0);
        if (message) expect(res.body.message).toBe(message);
      }
      expect((await page(ayse)).find((m) => m.id === id)).toMatchObject({ content: 'mine', edited_at: null });
    });
  });

  describe('DELETE /messages/:id', () => {
    it('leaves a blank tombstone, keeps unread counts, follows the preview and announces message.deleted', async () => {
      const id = await send(ayse, 'oops, wrong chat');
      await svc.http().post(`/api/messages/${id}/reactions`).set(burak.auth).send({ emoji: '😂' });
      const unreadBefore = (await conversation(burak)).unread_count;
      expect(unreadBefore).toBeGreaterThan(0);

      const res = await svc.http().delete(`/api/messages/${id}`).set(ayse.auth);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id, content: '', deleted: true, reactions: [] });
      expect((await page(burak)).find((m) => m.id === id)).toMatchObject({ content: '', deleted: true, reactions: [] });
      const row = await conversation(burak);
      expect(row.unread_count).toBe(unreadBefore);
      expect(row.last_message).toMatchObject({ id, content: '', deleted: true });
      await svc.settle();
      expect(svc.emitted('message.deleted').at(-1)).toEqual({
        messageId: id,
        conversationId,
        senderId: ayse.id,
        memberIds: [ayse.id, burak.id],
        deletedAt: expect.any(String),
      });

      // Again: the same tombstone, nothing new announced; it can no longer be edited or reacted to.
      const count = svc.emitted('message.deleted').length;
      expect((await svc.http().delete(`/api/messages/${id}`).set(ayse.auth)).status).toBe(200);
      await svc.settle();
      expect(svc.emitted('message.deleted')).toHaveLength(count);
      expect((await svc.http().put(`/api/messages/${id}`).set(ayse.auth).send({ content: 'back' })).status).toBe(409);
      expect((await react(burak, id, '👍')).status).toBe(409);
    });

    it('refuses another member message (403) and a missing one (404)', async () => {
      const id = await send(burak, 'keep this');
      expect((await svc.http().delete(`/api/messages/${id}`).set(ayse.auth)).status).toBe(403);
      expect((await svc.http().delete(`/api/messages/${id}`).set(cem.auth)).status).toBe(403);
      expect((await svc.http().delete('/api/messages/missing').set(ayse.auth)).status).toBe(404);
      expect((await page(ayse)).find((m) => m.id === id)).toMatchObject({ content: 'keep this', deleted: false });
    });

    it('leaves an older message preview alone', async () => {
      const old = await send(ayse, 'older');
      await send(burak, 'newest');
      await svc.http().delete(`/api/messages/${old}`).set(ayse.auth);
      expect((await conversation(ayse)).last_message).toMatchObject({ content: 'newest', deleted: false });
    });
  });

  describe('reactions', () => {
    it('counts per emoji with the viewer own flag, once per member, and announces each change', async () => {
      const id = await send(burak, 'pizza tonight?');
      expect((await react(ayse, id, '👍')).status).toBe(201);
      const second = await react(burak, id, '👍');
      expect(second.body.data.reactions).toEqual([{ emoji: '👍', count: 2, me: true }]);
      const again = await react(ayse, id, '👍');
      expect(again.body.data.reactions).toEqual([{ emoji: '👍', count: 2, me: true }]);
      await react(ayse, id, '🇹🇷');
      expect((await page(burak)).find((m) => m.id === id)!.reactions).toEqual([
        { emoji: '👍', count: 2, me: true },
        { emoji: '🇹🇷', count: 1, me: false },
      ]);

      const removed = await react(ayse, id, '👍', 'delete');
      expect(removed.status).toBe(200);
      expect(removed.body.data.reactions).toEqual([
        { emoji: '👍', count: 1, me: false },
        { emoji: '🇹🇷', count: 1, me: true },
      ]);
      await svc.settle();
      const events = svc.emitted('message.reaction_changed').filter((e) => e.messageId === id);
      // Four changes; the repeated add announced nothing.
      expect(events.map((e) => [e.userId === ayse.id ? 'ayse' : 'burak', e.emoji, e.added])).toEqual([
        ['ayse', '👍', true],
        ['burak', '👍', true],
        ['ayse', '🇹🇷', true],
        ['ayse', '👍', false],
      ]);
      expect(events.at(-1)).toMatchObject({
        conversationId,
        memberIds: [ayse.id, burak.id],
        reactions: [
          { emoji: '👍', count: 1 },
          { emoji: '🇹🇷', count: 1 },
        ],
      });
    });

    it('is for members only (403), of an existing message (404), with one emoji (400)', async () => {
      const id = await send(ayse, 'react to me');
      expect((await react(cem, id, '👍')).status).toBe(403);
      expect((await react(cem, id, '👍', 'delete')).status).toBe(403);
      expect((await react(ayse, 'missing', '👍')).status).toBe(404);
      for (const emoji of ['', 'a', 'ok', '👍👍', 42, null, { $ne: '' }, ['👍'], '👍'.repeat(9)]) {
        const res = await react(ayse, id, emoji);
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('emoji');
      }
      expect((await svc.http().post(`/api/messages/${id}/reactions`).set(ayse.auth).send({ emoji: '👍', extra: 1 })).status).toBe(400);
    });
  });

  it('takes family, flag and skin-tone emojis as one', () => {
    for (const ok of ['👍', '👍🏽', '🇹🇷', '👨‍👩‍👧', '❤️', '🔥']) expect(isReactionEmoji(ok)).toBe(true);
    for (const bad of ['a', '1', '👍 ', ' ', '😀😀', 'x'.repeat(17)]) expect(isReactionEmoji(bad)).toBe(false);
  });
});
