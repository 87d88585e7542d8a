import { JoinRequestView, SquadCategory, SquadRole, SquadView } from '@app/contracts';
import { SeedContext, SeededUser } from './seed-client';

interface DemoSquad {
  name: string;
  description: string;
  category: SquadCategory;
  /** Index into ctx.users; becomes the first admin. */
  creator: number;
  /** Joined through request and approval, oldest first; role other than member is set after. */
  members: [number, SquadRole?][];
  /** Left waiting for the admins, with its message. */
  pending?: [number, string];
}

/** The demo login (users[0]) admins two squads, moderates one, belongs to another and has a request to handle. */
const DEMO_SQUADS: DemoSquad[] = [
  {
    name: 'Mechanical Keyboards',
    description: 'Switches, keycaps and the endless search for the perfect typing feel.',
    category: 'Technology',
    creator: 0,
    members: [[1, 'moderator'], [2], [3]],
    pending: [5, 'I just built my first 65% board and would love feedback on lubing switches.'],
  },
  {
    name: 'Weekend Gamers',
    description: 'Co-op nights, indie gems and honest reviews of the latest releases.',
    category: 'Gaming',
    creator: 3,
    members: [[0, 'moderator'], [4], [6]],
  },
  {
    name: 'Page Turners',
    description: 'One book a month, spoilers only after the 20th.',
    category: 'Books',
    creator: 2,
    members: [[0], [5], [7]],
  },
  {
    name: 'Coffee & Kitchen Gear',
    description: 'Grinders, pour-over kits and the gadgets that earn their counter space.',
    category: 'Food',
    creator: 4,
    members: [[1], [6]],
  },
  {
    name: 'Trail Runners',
    description: 'Shoes, watches and weekend routes around the city.',
    category: 'Fitness',
    creator: 6,
    members: [[7, 'admin'], [3]],
  },
  {
    name: 'Film Night',
    description: 'Projectors, soundbars and what we watched this week.',
    category: 'Movies',
    creator: 0,
    members: [[4]],
  },
];

/** Demo data of services/squads, made through the public API as members would. */
export async function seedSquads(ctx: SeedContext): Promise<void> {
  ctx.made.squads = [];
  for (const demo of DEMO_SQUADS) {
    const admin = ctx.users[demo.creator];
    const { name, description, category } = demo;
    const squad = await ctx.client.request<SquadView>('POST', '/squads', admin.token, { name, description, category });
    ctx.made.squads.push(squad.id);
    for (const [index, role] of demo.members) {
      await join(ctx, squad.id, admin, ctx.users[index]);
      if (role && role !== 'member') {
        await ctx.client.request('PUT', `/squads/${squad.id}/members/${ctx.users[index].id}`, admin.token, { role });
      }
    }
    if (demo.pending) {
      const [index, message] = demo.pending;
      await ctx.client.request('POST', `/squads/${squad.id}/request-join`, ctx.users[index].token, { message });
    }
  }
}

async function join(ctx: SeedContext, squadId: string, admin: SeededUser, member: SeededUser): Promise<void> {
  const request = await ctx.client.request<JoinRequestView>('POST', `/squads/${squadId}/request-join`, member.token, {});
  await ctx.client.request('POST', `/squads/${squadId}/join-requests/${request.id}`, admin.token, { action: 'approve' });
}
