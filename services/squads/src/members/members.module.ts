import { Module } from '@nestjs/common';
import { DirectoryModule } from '../directory/directory.module';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { SquadAccess } from './squad-access.service';

@Module({
  imports: [DirectoryModule],
  controllers: [MembersController],
  providers: [MembersService, SquadAccess],
  exports: [MembersService, SquadAccess],
})
export class MembersModule {}
