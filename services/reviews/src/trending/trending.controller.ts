import { Controller, Get, Query } from '@nestjs/common';
import { TrendingQueryDto, TrendingTag, TrendingTopic } from '@app/contracts';
import { ReviewsService } from '../reviews/reviews.service';
import { rankTags, rankTopics, twoWeeksBefore } from './trending';

/** Trending topics: product categories by reviews this week (spec part 1 §2 panel, made live). */
@Controller('trending')
export class TrendingController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get()
  async topics(@Query() _query: TrendingQueryDto): Promise<TrendingTopic[]> {
    const now = Date.now();
    const rows = await this.reviews.categorisedSince(twoWeeksBefore(now));
    return rankTopics(
      rows.map((r) => ({ category: r.product_category ?? '', created_at: r.created_at })),
      now,
    );
  }

  /** The top tags of the same window (issue 21 §6). */
  @Get('tags')
  async tags(@Query() _query: TrendingQueryDto): Promise<TrendingTag[]> {
    const now = Date.now();
    return rankTags(await this.reviews.tagsSince(twoWeeksBefore(now)), now);
  }
}
