import { ServiceDefinition } from '@app/platform';
import { authService } from '../../../services/auth/src/auth.service-definition';
import { messagingService } from '../../../services/messaging/src/messaging.service-definition';
import { notificationsService } from '../../../services/notifications/src/notifications.service-definition';
import { reviewsService } from '../../../services/reviews/src/reviews.service-definition';
import { socialService } from '../../../services/social/src/social.service-definition';
import { squadsService } from '../../../services/squads/src/squads.service-definition';

export interface CatalogueEntry {
  definition: ServiceDefinition;
  /** Port in distributed mode (containers use 3000 each). */
  port: number;
}

/** Every deployable service. The launcher (composition root) is the only place that knows them all. */
export const SERVICE_CATALOGUE: CatalogueEntry[] = [
  { definition: authService, port: 3101 },
  { definition: socialService, port: 3102 },
  { definition: reviewsService, port: 3103 },
  { definition: squadsService, port: 3104 },
  { definition: messagingService, port: 3105 },
  { definition: notificationsService, port: 3106 },
];
