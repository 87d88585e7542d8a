import { SeedContext } from './seed-client';

/** Demo data of services/reviews, made through the public API. */
export async function seedReviews(_ctx: SeedContext): Promise<void> {
  // Filled in by the reviews service.
}
