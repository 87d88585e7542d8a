import { ServiceDefinition } from '@app/platform';
import { authService } from '../../../services/auth/src/auth.service-definition';
import { messagingService } from '../../../services/messaging/src/messaging.service-definition';
import { notificationsService } from '../../../services/notifications/src/notifications.service-definition';
import { reviewsService } from '../../../services/reviews/src/reviews.service-definition';
import { socialService } from '../../../services/social/src/social.service-definition';
import { squadsService } from '../../../services/squads/src/squads.service-definition';
import { SERVICE_PORTS, ServiceName } from './service-ports';

export interface CatalogueEntry {
  definition: ServiceDefinition;
  /** Port in distributed mode (containers use 3000 each). */
  port: number;
}

const DEFINITIONS: Record<ServiceName, ServiceDefinition> = {
  auth: authService,
  social: socialService,
  reviews: reviewsService,
  squads: squadsService,
  messaging: messagingService,
  notifications: notificationsService,
};

/** Every deployable service with its code. The launcher (composition root) is the only place that knows them all. */
export const SERVICE_CATALOGUE: CatalogueEntry[] = SERVICE_PORTS.map(({ name, port }) => ({ definition: DEFINITIONS[name], port }));
