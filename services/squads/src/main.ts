import 'reflect-metadata';
import { runService } from '@app/platform';
import { squadsService } from './squads.service-definition';

void runService(squadsService);
