import { createTestService, TestService } from '@app/testing';
import { ConversationView } from '@app/contracts';
import { messagingService } from '../messaging.service-definition';
import { registerMember, TestMember } from '../messaging.fixture';

describe('messaging: read receipts (conversation.read, other_read_at)', () => {
  let svc: TestService;
  let ayse: TestMember;
  let burak: TestMember;
  let cem: TestMember;

  beforeAll(async () => {
    svc = await createTestService(messagingService);
    [ayse, burak, cem] = await Promise.all(['ayse', 'burak', 'cem'].map((u) => registerMember(svc, u)));
  });

  afterAll(() => svc.close());

  const start = async (memberIds: string[]) =>
    (await svc.http().post('/api/messages/conversations').set(ayse.auth).send({ memberIds })).body.data.id as string;
  const row = async (member: TestMember, id: string) =>
    ((await svc.http().get('/api/messages/conversations').set(member.auth)).body.data as ConversationView[]).find((c) => c.id === id)!;
  const read = (member: TestMember, id: string) => svc.http().post(`/api/messages/conversations/${id}/read`).set(member.auth);

  it('in a one-to-one the sender sees when the other member last read it, and the read is announced to both', async () => {
    const id = await start([burak.id]);
    await svc.http().post(`/api/messages/conversations/${id}/messages`).set(ayse.auth).send({ content: 'Okudun mu?' });
    expect((await row(ayse, id)).other_read_at).toBeNull();

    const res = await read(burak, id);
    expect(res.status).toBe(200);
    const readAt = res.body.data.last_read_at as string;
    expect(await row(ayse, id)).toMatchObject({ other_read_at: readAt });
    expect(await row(burak, id)).toMatchObject({ unread_count: 0 });
    await svc.settle();
    expect(svc.emitted('conversation.read').at(-1)).toEqual({
      conversationId: id,
      userId: burak.id,
      memberIds: [ayse.id, burak.id],
      isGroup: false,
      readAt,
    });
  });

  it('groups show nobody when each member read (other_read_at null) and say so in the event (isGroup)', async () => {
    const id = await start([burak.id, cem.id]);
    await svc.http().post(`/api/messages/conversations/${id}/messages`).set(ayse.auth).send({ content: 'Herkese selam' });
    await read(burak, id);
    expect((await row(ayse, id)).other_read_at).toBeNull();
    await svc.settle();
    expect(svc.emitted('conversation.read').at(-1)).toMatchObject({ conversationId: id, userId: burak.id, isGroup: true });
  });

  it('a non-member cannot mark it read (403) and nothing is announced', async () => {
    const id = await start([burak.id]);
    await svc.settle();
    const before = svc.emitted('conversation.read').length;
    expect((await read(cem, id)).status).toBe(403);
    await svc.settle();
    expect(svc.emitted('conversation.read')).toHaveLength(before);
  });
});
