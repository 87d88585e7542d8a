import { createTestService, TestService } from '@app/testing';
import { messagingService } from '../messaging.service-definition';
import { registerMember, TestMember } from '../messaging.fixture';

describe('messaging: @mentions in squad chat', () => {
  let svc: TestService;
  let admin: TestMember;
  let deniz: TestMember;
  let ela: TestMember;
  let outsider: TestMember;
  let chatId: string;

  beforeAll(async () => {
    svc = await createTestService(messagingService);
    [admin, deniz, ela, outsider] = await Promise.all(['admin', 'deniz', 'ela', 'outsider'].map((u) => registerMember(svc, u)));
    await svc.publish('squad.created', { squadId: 'sq-m', name: 'Coffee Lab', category: 'Kitchen', creatorId: admin.id }, 'sq-m');
    for (const m of [deniz, ela]) {
      await svc.publish('squad.member_joined', { squadId: 'sq-m', squadName: 'Coffee Lab', userId: m.id, role: 'member', joined_at: new Date().toISOString() }, 'sq-m');
    }
    chatId = (await svc.http().get('/api/messages/squads/sq-m/conversation').set(admin.auth)).body.data.id;
  });

  afterAll(() => svc.close());

  const send = async (content: string) => {
    const res = await svc.http().post(`/api/messages/conversations/${chatId}/messages`).set(admin.auth).send({ content });
    expect(res.status).toBe(201);
    await svc.settle();
    return res.body.data.id as string;
  };
  const edit = async (id: string, content: string) => {
    expect((await svc.http().put(`/api/messages/${id}`).set(admin.auth).send({ content })).status).toBe(200);
    await svc.settle();
  };

  it('names squad members mentioned by @username (any case) on message.sent; not the author, non-members or emails', async () => {
    await send('@DENIZ try this, @admin @outsider @nobody, mail me at x@ela.com');
    const named = svc.emitted('message.sent').at(-1)?.mentions;
    expect(named).toEqual({ squadId: 'sq-m', squadName: 'Coffee Lab', userIds: [deniz.id] });
    // a registered member, just not in this squad
    expect(named?.userIds).not.toContain(outsider.id);
    await send('no mentions here');
    expect(svc.emitted('message.sent').at(-1)?.mentions).toBeUndefined();
    // a squad chat's message names its squad (squads counts its week's messages, issue 43 §2)
    expect(svc.emitted('message.sent').at(-1)?.squadId).toBe('sq-m');
  });

  it('an edit names only the members the message had not named before, so each is notified once', async () => {
    const id = await send('@deniz look');
    await edit(id, '@deniz look, @ela too');
    expect(svc.emitted('message.edited').at(-1)?.mentions).toEqual({ squadId: 'sq-m', squadName: 'Coffee Lab', userIds: [ela.id] });
    await edit(id, '@ela @deniz look again');
    expect(svc.emitted('message.edited').at(-1)?.mentions).toBeUndefined();
    await edit(id, 'nobody');
    await edit(id, '@deniz back');
    expect(svc.emitted('message.edited').at(-1)?.mentions).toBeUndefined();
  });

  it('a one-to-one names nobody: mentions belong to squad chats', async () => {
    const dm = (await svc.http().post('/api/messages/conversations').set(admin.auth).send({ memberIds: [deniz.id] })).body.data.id;
    await svc.http().post(`/api/messages/conversations/${dm}/messages`).set(admin.auth).send({ content: '@deniz hi' });
    await svc.settle();
    expect(svc.emitted('message.sent').at(-1)).toMatchObject({ conversationId: dm });
    expect(svc.emitted('message.sent').at(-1)?.mentions).toBeUndefined();
    expect(svc.emitted('message.sent').at(-1)?.squadId).toBeUndefined();
  });
});
