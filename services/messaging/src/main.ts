import 'reflect-metadata';
import { runService } from '@app/platform';
import { messagingService } from './messaging.service-definition';

void runService(messagingService);
