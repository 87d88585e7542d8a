import { Module } from '@nestjs/common';
import { MessagingCountersRepair } from './counters.repair';

/** The boot-time counter repair of the messaging service. */
@Module({ providers: [MessagingCountersRepair] })
export class CountersModule {}
