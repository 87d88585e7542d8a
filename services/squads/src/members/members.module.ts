import { Module } from '@nestjs/common';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { SquadAccess } from './squad-access.service';

@Module({
  controllers: [MembersController],
  providers: [MembersService, SquadAccess],
  exports: [MembersService, SquadAccess],
})
export class MembersModule {}
