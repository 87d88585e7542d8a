import { createTestService, TestService } from '@app/testing';
import { ConversationView } from '@app/contracts';
import { messagingService } from '../messaging.service-definition';
import { registerMember, TestMember } from '../messaging.fixture';

describe('messaging: image attachments (HTTP)', () => {
  let svc: TestService;
  let ayse: TestMember;
  let burak: TestMember;
  let conversationId: string;

  beforeAll(async () => {
    svc = await createTestService(messagingService);
    [ayse, burak] = await Promise.all(['ayse', 'burak'].map((u) => registerMember(svc, u)));
    conversationId = (await svc.http().post('/api/messages/conversations').set(ayse.auth).send({ memberIds: [burak.id] })).body.data.id;
  });

  afterAll(() => svc.close());

  const send = (body: object) => svc.http().post(`/api/messages/conversations/${conversationId}/messages`).set(ayse.auth).send(body);
  const page = async () =>
    (await svc.http().get(`/api/messages/conversations/${conversationId}/messages`).set(burak.auth)).body.data as Array<Record<string, unknown>>;
  const preview = async () =>
    ((await svc.http().get('/api/messages/conversations').set(burak.auth)).body.data as ConversationView[]).find((c) => c.id === conversationId)!
      .last_message;

  it('keeps uploaded images with optional alt text, alone or with text, in the reply, the page, the preview and message.sent', async () => {
    const res = await send({ attachments: [{ url: '/api/media/abc123', alt: '  The box  ' }, { url: '/api/media/def456' }] });
    expect(res.status).toBe(201);
    const attachments = [
      { url: '/api/media/abc123', alt: 'The box' },
      { url: '/api/media/def456', alt: null },
    ];
    expect(res.body.data).toMatchObject({ content: '', attachments });
    expect((await page()).find((m) => m.id === res.body.data.id)).toMatchObject({ attachments });
    expect(await preview()).toMatchObject({ id: res.body.data.id, content: '', images: 2 });
    await svc.settle();
    expect(svc.emitted('message.sent').at(-1)?.message).toMatchObject({ attachments });

    const withText = await send({ content: 'Look', attachments: [{ url: '/api/media/abc123' }] });
    expect(withText.body.data).toMatchObject({ content: 'Look', attachments: [{ url: '/api/media/abc123', alt: null }] });
    const plain = await send({ content: 'no images' });
    expect(plain.body.data.attachments).toEqual([]);
  });

  it('refuses anything but this product media paths, more than 4 images, long alt text and a message with neither text nor image', async () => {
    const image = (url: unknown) => ({ attachments: [{ url }] });
    for (const [body, field] of [
      [image('https://evil.example/x.png'), 'attachments'],
      [image('/api/media/../auth/me'), 'attachments'],
      [image('javascript:alert(1)'), 'attachments'],
      [image(42), 'attachments'],
      [{ attachments: Array.from({ length: 5 }, () => ({ url: '/api/media/a1' })) }, 'attachments'],
      [{ attachments: [{ url: '/api/media/a1', alt: 'x'.repeat(201) }] }, 'attachments'],
      [{ attachments: 'not-a-list' }, 'attachments'],
      [{ content: '  ', attachments: [] }, 'content'],
      [{}, 'content'],
    ] as const) {
      const res = await send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field.split('.')[0])).toContain(field);
    }
  });

  it('drops the images with the text when the sender deletes the message', async () => {
    const id = (await send({ attachments: [{ url: '/api/media/abc123' }] })).body.data.id;
    const res = await svc.http().delete(`/api/messages/${id}`).set(ayse.auth);
    expect(res.body.data).toMatchObject({ deleted: true, attachments: [] });
    expect((await page()).find((m) => m.id === id)).toMatchObject({ deleted: true, attachments: [] });
    expect(await preview()).toMatchObject({ id, deleted: true, images: 0 });
  });

  it('edits change the text only: PUT takes no attachments', async () => {
    const id = (await send({ content: 'caption', attachments: [{ url: '/api/media/abc123' }] })).body.data.id;
    const res = await svc.http().put(`/api/messages/${id}`).set(ayse.auth).send({ content: 'better caption', attachments: [{ url: '/api/media/zzz' }] });
    expect(res.status).toBe(400);
    const ok = await svc.http().put(`/api/messages/${id}`).set(ayse.auth).send({ content: 'better caption' });
    expect(ok.body.data).toMatchObject({ content: 'better caption', attachments: [{ url: '/api/media/abc123', alt: null }] });
  });
});
