import { SeedContext } from './seed-client';

/** Demo data of services/messaging, made through the public API. */
export async function seedMessaging(_ctx: SeedContext): Promise<void> {
  // Filled in by the messaging service.
}
