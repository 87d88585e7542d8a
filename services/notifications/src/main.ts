import 'reflect-metadata';
import { runService } from '@app/platform';
import { notificationsService } from './notifications.service-definition';

void runService(notificationsService);
