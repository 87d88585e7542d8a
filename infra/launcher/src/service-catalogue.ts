import { ServiceDefinition } from '@app/platform';
import { authService } from '../../../services/auth/src/auth.service-definition';
import { messagingService } from '../../../services/messaging/src/messaging.service-definition';
import { notificationsService } from '../../../services/notifications/src/notifications.service-definition';
import { reviewsService } from '../../../services/reviews/src/reviews.service-definition';
import { socialService } from '../../../services/social/src/social.service-definition';
import { squadsService } from '../../../services/squads/src/squads.service-definition';
import { SERVICE_PORTS } from './service-ports';

export interface CatalogueEntry {
  definition: ServiceDefinition;
  /** Port in distributed mode (containers use 3000 each). */
  port: number;
}

const DEFINITIONS: ServiceDefinition[] = [authService, socialService, reviewsService, squadsService, messagingService, notificationsService];

/** Every deployable service, in SERVICE_PORTS's order. The launcher (composition root) is the only place that knows them all. */
export const SERVICE_CATALOGUE: CatalogueEntry[] = SERVICE_PORTS.map(({ name, port }) => {
  const definition = DEFINITIONS.find((d) => d.name === name);
  if (!definition) throw new Error(`service-ports.ts names "${name}", which has no service definition`);
  return { definition, port };
});
const unported = DEFINITIONS.find((d) => !SERVICE_PORTS.some((p) => p.name === d.name));
if (unported) throw new Error(`service "${unported.name}" has no port in service-ports.ts`);
