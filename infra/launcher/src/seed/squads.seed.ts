import { SeedContext } from './seed-client';

/** Demo data of services/squads, made through the public API. */
export async function seedSquads(_ctx: SeedContext): Promise<void> {
  // Filled in by the squads service.
}
