import { Controller, Get, Query } from '@nestjs/common';
import { ActivityQueryDto, pageWindow } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ActivitiesService } from './activities.service';

@Controller('activities')
export class ActivitiesController {
  constructor(private readonly activities: ActivitiesService) {}

  @Get('feed')
  async feed(@CurrentUser() user: AuthenticatedUser, @Query() query: ActivityQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.activities.feed(user.id, query, skip, limit);
    return Reply.list(items, total, page, limit);
  }

  /** The viewer's own activities, or another member's with ?userId=. */
  @Get('user')
  async user(@CurrentUser() user: AuthenticatedUser, @Query() query: ActivityQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.activities.ofUser(user.id, query.userId ?? user.id, query, skip, limit);
    return Reply.list(items, total, page, limit);
  }
}
