import { SeedContext, SeededUser } from './seed-client';
import { assertAllImported } from './stack-importer';

/** Bios by demo member, in the order auth.seed registers them. */
const BIOS = [
  'Coffee gear and mechanical keyboards. I review what I actually use every day.',
  'Home cook. Knives, pans and anything that makes weeknight dinners faster.',
  'Runner and gadget tester; honest takes on wearables and earbuds.',
  'Gamer and PC builder. Monitors, mice, and too many RGB strips.',
  'Skincare nerd with a budget. Long reviews, no sponsorships.',
  'Weekend hiker, weekday engineer. Outdoor gear that survives the trail.',
  'Interior design student; lamps, chairs and small-flat living.',
  'Fitness coach. Home gym equipment, tested hard.',
];

/** Who follows whom (indexes into ctx.users): a small, believable graph with some mutual follows. */
const FOLLOWS: [number, number][] = [
  [0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0], [1, 2], [2, 4], [4, 2],
  [3, 5], [5, 3], [4, 0], [5, 0], [7, 0], [7, 3], [1, 7], [6, 0], [6, 4],
];

/** Selin keeps a private account: Ayşe was approved, Burak's request still waits. */
const PRIVATE_MEMBER = 6;
const APPROVED_REQUESTER = 0;
const PENDING_REQUESTER = 7;

/**
 * Demo data of services/social: bios and Selin's privacy through the public API, then every
 * follow through the follows import (the same rules: Selin's are requests), and one request
 * accepted through the API.
 */
export async function seedSocial(ctx: SeedContext): Promise<void> {
  const { client, users } = ctx;
  for (const [i, user] of users.entries()) {
    if (BIOS[i]) await client.request('PUT', '/users/profile', user.token, { bio: BIOS[i] });
  }
  const owner = users[PRIVATE_MEMBER];
  if (owner) await client.request('PUT', '/users/settings', owner.token, { privacy_profile: 'private' });
  const edges: [SeededUser, SeededUser][] = FOLLOWS.filter(([from, to]) => users[from] && users[to]).map(([from, to]) => [users[from], users[to]]);
  for (const requester of [users[APPROVED_REQUESTER], users[PENDING_REQUESTER]]) {
    if (owner && requester) edges.push([requester, owner]);
  }
  await ctx.settle(); // social knows every member (user.registered)
  assertAllImported('demo follows', await ctx.importer.follows(edges.map(([by, target]) => ({ follower_id: by.id, followee_id: target.id }))));
  if (!owner) return;
  if (users[APPROVED_REQUESTER]) {
    await client.request('POST', `/follows/requests/${users[APPROVED_REQUESTER].id}/accept`, owner.token);
  }
  // Later steps must not have members like or comment on reviews they cannot see.
  ctx.made.privateMembers = [owner.id];
  ctx.made[`approvedFollowers:${owner.id}`] = users[APPROVED_REQUESTER] ? [users[APPROVED_REQUESTER].id] : [];
  await ctx.settle();
}
