import { ConversationView } from '@app/contracts';
import { SeedContext, SeededUser } from './seed-client';

/** [sender index into the conversation's people, text], oldest first. */
type Line = [number, string];

interface DemoConversation {
  /** Indexes into ctx.users; the first starts the conversation. */
  people: number[];
  lines: Line[];
  /** The demo login (users[0]) has read it. */
  readByDemo: boolean;
}

const DEMO_CONVERSATIONS: DemoConversation[] = [
  {
    people: [2, 0],
    lines: [
      [0, 'Did you finish the book for this month?'],
      [1, 'Two chapters left. No spoilers before the 20th!'],
      [0, 'Deal. The ending is worth it though.'],
    ],
    readByDemo: false,
  },
  {
    people: [0, 3, 4],
    lines: [
      [0, 'Co-op night on Friday? I can host.'],
      [1, 'In. I will bring the new controller I reviewed.'],
      [2, 'Count me in, I will be a bit late.'],
    ],
    readByDemo: true,
  },
  {
    people: [0, 1],
    lines: [
      [0, 'Hey Mehmet! Which switches did you end up ordering?'],
      [1, 'Went with the linear ones, the tactile were too loud for the office.'],
      [0, 'Good call. Let me know how they feel after a week.'],
      [1, 'Will do, I will post a review too.'],
    ],
    readByDemo: false,
  },
];

const SQUAD_CHAT: Line[] = [
  [0, 'Welcome to the squad chat, everyone!'],
  [1, 'Thanks! Anyone tried the new low-profile boards?'],
];

async function say(ctx: SeedContext, from: SeededUser, conversationId: string, content: string): Promise<void> {
  await ctx.client.request('POST', `/messages/conversations/${conversationId}/messages`, from.token, { content });
}

/** Two one-to-ones and a group for the demo login, plus a few lines in its first squad's chat. */
export async function seedMessaging(ctx: SeedContext): Promise<void> {
  if (ctx.users.length < 5) return;
  await ctx.settle();
  const made: string[] = [];
  for (const demo of DEMO_CONVERSATIONS) {
    const people = demo.people.map((i) => ctx.users[i]);
    const [starter, ...others] = people;
    const conversation = await ctx.client.request<ConversationView>('POST', '/messages/conversations', starter.token, {
      memberIds: others.map((u) => u.id),
    });
    for (const [who, text] of demo.lines) await say(ctx, people[who], conversation.id, text);
    if (demo.readByDemo) await ctx.client.request('POST', `/messages/conversations/${conversation.id}/read`, ctx.users[0].token);
    made.push(conversation.id);
  }
  ctx.made.conversations = made;

  const squadId = ctx.made.squads?.[0];
  if (!squadId) return;
  const chat = await ctx.client.request<ConversationView>('GET', `/messages/squads/${squadId}/conversation`, ctx.users[0].token);
  const byId = new Map(ctx.users.map((u) => [u.id, u]));
  const speakers = chat.members.map((m) => byId.get(m.id)).filter((u): u is SeededUser => u !== undefined);
  if (speakers.length < 2) return;
  for (const [who, text] of SQUAD_CHAT) await say(ctx, speakers[who], chat.id, text);
}
