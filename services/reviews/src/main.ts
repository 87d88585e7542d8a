import 'reflect-metadata';
import { runService } from '@app/platform';
import { reviewsService } from './reviews.service-definition';

void runService(reviewsService);
