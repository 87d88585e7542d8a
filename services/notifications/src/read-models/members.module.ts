import { Module } from '@nestjs/common';
import { MembersEvents } from './members.events';
import { MembersService } from './members.service';

@Module({
  controllers: [MembersEvents],
  providers: [MembersService],
  exports: [MembersService],
})
export class MembersModule {}
