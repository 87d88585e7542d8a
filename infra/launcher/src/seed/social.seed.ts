import { SeedContext } from './seed-client';

/** Demo data of services/social, made through the public API. */
export async function seedSocial(_ctx: SeedContext): Promise<void> {
  // Filled in by the social service.
}
