import { AnyEventEnvelope, EventType } from '@app/contracts';
import { MemoryTransport, sharedMemoryTransport, SubscribeOptions } from '@app/bus';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { register, Member } from './chat-clients';
import { probe } from './http-probe';

/** How much later than the emitter the slowed consumers handle the watched events. */
const LAG_MS = 400;

/**
 * Issue 46 case 3: a block, a suspension and a role change are in force on every route once their
 * own request has returned, however far behind the consumers that enforce them are. The stack's
 * consumers of the watched events are slowed by LAG_MS, as a busy service's would be; before the
 * fix each request returned first and the next one went through.
 */
describe('a block, a suspension and a role are in force when their request returns (embedded stack)', () => {
  let stack: EmbeddedStack;
  let admin: Member;
  const watched = new Set<EventType>();

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    admin = await register(stack.url, 'Ada'); // the first account is the admin
    slowConsumers(sharedMemoryTransport(), (event) => watched.has(event.type));
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  const as = (who: Member, method: string, path: string, body?: unknown) =>
    probe(stack.url, { method, path, token: who.token, body, timeoutMs: 15_000 });

  it('a blocked member cannot open a conversation with the blocker right after the block returns', async () => {
    const [blocker, blocked] = [await register(stack.url, 'Bora'), await register(stack.url, 'Cem')];
    await stack.settle();
    watched.add('block.created');
    expect((await as(blocker, 'POST', `/api/users/${blocked.id}/block`)).status).toBe(200);
    const opened = await as(blocked, 'POST', '/api/messages/conversations', { memberIds: [blocker.id] });
    expect(opened.status).toBe(403);
  });

  it('a suspended member is refused by every service right after the suspension returns', async () => {
    const member = await register(stack.url, 'Deniz');
    await stack.settle();
    watched.add('moderation.member_suspended');
    watched.add('auth.sessions_revoked');
    expect((await as(admin, 'POST', `/api/moderation/suspensions/${member.id}`, { hours: 1, reason: 'Spam' })).status).toBe(201);
    expect((await as(member, 'GET', '/api/messages/conversations')).status).toBe(401);
    expect((await as(member, 'GET', '/api/squads')).status).toBe(401);
  });

  it('a promotion and a demotion apply to the very next request', async () => {
    const member = await register(stack.url, 'Ece');
    await stack.settle();
    watched.add('moderation.role_changed');
    const setRole = (role: string) => as(admin, 'PUT', `/api/moderation/roles/${member.id}`, { role, reason: 'issue 46' });
    expect((await setRole('moderator')).status).toBe(200);
    expect((await as(member, 'GET', '/api/moderation/reports')).status).toBe(200);
    expect((await setRole('member')).status).toBe(200);
    expect((await as(member, 'GET', '/api/moderation/reports')).status).toBe(403);
  });
});

/** Every consumer of the bus (service groups and broadcast subscriptions) handles a matching event LAG_MS late. */
function slowConsumers(transport: MemoryTransport, matches: (event: AnyEventEnvelope) => boolean): void {
  const groups = (transport as unknown as { groups: Map<string, { options: SubscribeOptions }[]> }).groups;
  const late = () => new Promise((r) => setTimeout(r, LAG_MS));
  for (const consumers of groups.values()) {
    for (const consumer of consumers) {
      const { handler, handleBatch } = consumer.options;
      consumer.options = {
        ...consumer.options,
        handler: async (event) => {
          if (matches(event)) await late();
          return handler(event);
        },
        ...(handleBatch && {
          handleBatch: async (events: AnyEventEnvelope[]) => {
            if (events.some(matches)) await late();
            return handleBatch(events);
          },
        }),
      };
    }
  }
}
