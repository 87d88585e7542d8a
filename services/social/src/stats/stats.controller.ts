import { Controller, Get } from '@nestjs/common';
import { UserStats } from '@app/contracts';
import { AuthenticatedUser, CurrentUser } from '@app/platform';
import { RelationsService } from '../relations/relations.service';
import { ActivityService } from './activity.service';

@Controller('users')
export class StatsController {
  constructor(
    private readonly activity: ActivityService,
    private readonly relations: RelationsService,
  ) {}

  /** GET /users/stats: the signed-in member's numbers (spec part 1 §3: User stats). */
  @Get('stats')
  async stats(@CurrentUser() user: AuthenticatedUser): Promise<UserStats> {
    const [reviewsCount, squadsCount, friendsCount] = await Promise.all([
      this.activity.reviews(user.id),
      this.activity.squads(user.id),
      this.relations.friendsCount(user.id),
    ]);
    return { reviewsCount, squadsCount, friendsCount };
  }
}
