import { Module } from '@nestjs/common';
import { SocialCountersRepair } from './counters.repair';

/** The boot-time counter repair of the social service. */
@Module({ providers: [SocialCountersRepair] })
export class CountersModule {}
