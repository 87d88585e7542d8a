import 'reflect-metadata';
import { runService } from '@app/platform';
import { authService } from './auth.service-definition';

void runService(authService);
