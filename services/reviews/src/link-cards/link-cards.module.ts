import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { LinkCardsController } from './link-cards.controller';
import { LinkCardsService } from './link-cards.service';

@Module({
  // AudienceService comes from the global AudienceModule
  imports: [ProductsModule, ReviewsModule],
  controllers: [LinkCardsController],
  providers: [LinkCardsService],
})
export class LinkCardsModule {}
