import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { FollowStatus, PageQueryDto, pageWindow, UserIdParamDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ProfilesService } from '../profiles/profiles.service';
import { RelationsService } from '../relations/relations.service';
import { FollowOutcome, FollowsService } from './follows.service';

const answer = (o: FollowOutcome) => Reply.message(o.message, { status: o.status });

/** Spec part 1 §7: follow, unfollow, status, followers and following lists. */
@Controller('follows')
export class FollowsController {
  constructor(
    private readonly follows: FollowsService,
    private readonly relations: RelationsService,
    private readonly profiles: ProfilesService,
  ) {}

  @Post('users/:id')
  @HttpCode(200)
  async follow(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    return answer(await this.follows.follow(user.id, p.id));
  }

  @Delete('users/:id')
  async unfollow(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    return answer(await this.follows.unfollow(user.id, p.id));
  }

  @Get('status/:id')
  async status(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto): Promise<FollowStatus> {
    await this.profiles.require(p.id);
    return this.relations.status(user.id, p.id);
  }

  @Get('followers')
  async myFollowers(@CurrentUser() user: AuthenticatedUser, @Query() q: PageQueryDto) {
    return this.list(this.follows.followers.bind(this.follows), user.id, user.id, q);
  }

  @Get('followers/:id')
  async followersOf(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto, @Query() q: PageQueryDto) {
    return this.list(this.follows.followers.bind(this.follows), p.id, user.id, q);
  }

  /** The owner drops a follower without blocking them. */
  @Delete('followers/:id')
  async removeFollower(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    return answer(await this.follows.removeFollower(user.id, p.id));
  }

  @Get('following')
  async myFollowing(@CurrentUser() user: AuthenticatedUser, @Query() q: PageQueryDto) {
    return this.list(this.follows.following.bind(this.follows), user.id, user.id, q);
  }

  @Get('following/:id')
  async followingOf(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto, @Query() q: PageQueryDto) {
    return this.list(this.follows.following.bind(this.follows), p.id, user.id, q);
  }

  private async list(load: FollowsService['followers'], ownerId: string, viewerId: string, q: PageQueryDto) {
    const window = pageWindow(q);
    const { items, total } = await load(ownerId, viewerId, window);
    return Reply.list(items, total, window.page, window.limit);
  }
}
