import 'reflect-metadata';
import { runService } from '@app/platform';
import { socialService } from './social.service-definition';

void runService(socialService);
