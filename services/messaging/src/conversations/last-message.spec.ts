import { createTestService, TestService } from '@app/testing';
import { registerMember } from '../messaging.fixture';
import { messagingService } from '../messaging.service-definition';
import { ConversationsService } from './conversations.service';
import { conversationsCollection } from './conversation.collection';

/** Two messages of one millisecond: the conversation lists them by id, and its last message agrees. */
describe("a conversation's last message", () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await createTestService(messagingService);
  });

  afterAll(() => svc.close());

  it('is the later id of two sent in the same millisecond, whichever commits last', async () => {
    const [ann, bob] = [await registerMember(svc, 'ann'), await registerMember(svc, 'bob')];
    const created = await svc.http().post('/api/messages/conversations').set(ann.auth).send({ memberIds: [bob.id] });
    const conversationId = created.body.data.id as string;
    const conversations = svc.store.collection(conversationsCollection);
    const conversation = await conversations.findById(conversationId);
    if (!conversation) throw new Error('no conversation');
    const at = new Date(Date.now() + 60_000).toISOString();
    const record = (id: string) => svc.app.get(ConversationsService).recordMessage(conversation, { id, content: id, sender_id: ann.id, created_at: at, images: 0 });
    await record('m-2');
    await record('m-1'); // the earlier id commits last
    expect((await conversations.findById(conversationId))?.last_message?.id).toBe('m-2');
  });
});
