import { Module } from '@nestjs/common';
import { FollowsModule } from '../follows/follows.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { BlocksController } from './blocks.controller';
import { BlocksService } from './blocks.service';

@Module({
  imports: [ProfilesModule, FollowsModule],
  controllers: [BlocksController],
  providers: [BlocksService],
})
export class BlocksModule {}
