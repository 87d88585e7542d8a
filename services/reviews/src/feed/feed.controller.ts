import { Controller, Get, Query } from '@nestjs/common';
import { FeedQueryDto, pageWindow } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { FeedService } from './feed.service';

@Controller()
export class FeedController {
  constructor(private readonly feed: FeedService) {}

  @Get('feed')
  async page(@CurrentUser() user: AuthenticatedUser, @Query() query: FeedQueryDto) {
    const { page, limit, skip } = pageWindow(query, 10);
    const { items, total } = await this.feed.page(user.id, skip, limit);
    return Reply.list(items, total, page, limit);
  }
}
