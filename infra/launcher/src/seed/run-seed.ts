import { seedAuth } from './auth.seed';
import { seedMessaging } from './messaging.seed';
import { seedReviews } from './reviews.seed';
import { SeedClient, SeedContext, SeedRoute, SeedStep } from './seed-client';
import { StackImporter } from './stack-importer';
import { seedSocial } from './social.seed';
import { seedSquads } from './squads.seed';

/** Order matters: each step builds on what the earlier ones made. */
const STEPS: [string, SeedStep][] = [
  ['members', seedAuth],
  ['profiles and follows', seedSocial],
  ['products and reviews', seedReviews],
  ['squads', seedSquads],
  ['conversations', seedMessaging],
];

/**
 * Fills an empty stack with a believable demo: members, follows and reviews through the
 * services' bulk imports (their rules and events), the rest through the owning services' routes
 * (`route`), inside the stack.
 */
export async function runSeed(route: SeedRoute, importer: StackImporter): Promise<SeedContext> {
  const settle = importer.settle;
  const ctx: SeedContext = { client: new SeedClient(route), importer, users: [], made: {}, settle };
  for (const [, step] of STEPS) {
    await step(ctx);
    await settle();
  }
  return ctx;
}
