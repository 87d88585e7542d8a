import { Module } from '@nestjs/common';
import { DirectoryModule } from '../directory/directory.module';
import { MembersModule } from '../members/members.module';
import { JoinRequestsController } from './join-requests.controller';
import { JoinRequestsService } from './join-requests.service';

@Module({
  imports: [DirectoryModule, MembersModule],
  controllers: [JoinRequestsController],
  providers: [JoinRequestsService],
  exports: [JoinRequestsService],
})
export class JoinRequestsModule {}
