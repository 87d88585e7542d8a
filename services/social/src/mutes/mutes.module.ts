import { Module } from '@nestjs/common';
import { ProfilesModule } from '../profiles/profiles.module';
import { MutesController } from './mutes.controller';
import { MutesService } from './mutes.service';

@Module({
  imports: [ProfilesModule],
  controllers: [MutesController],
  providers: [MutesService],
})
export class MutesModule {}
