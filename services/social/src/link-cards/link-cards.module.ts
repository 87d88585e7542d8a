import { Module } from '@nestjs/common';
import { ProfilesModule } from '../profiles/profiles.module';
import { LinkCardsController } from './link-cards.controller';
import { LinkCardsService } from './link-cards.service';

@Module({
  imports: [ProfilesModule],
  controllers: [LinkCardsController],
  providers: [LinkCardsService],
})
export class LinkCardsModule {}
