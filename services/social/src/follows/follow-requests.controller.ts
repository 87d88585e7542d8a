import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { FollowRequestsQueryDto, pageWindow, UserIdParamDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { FollowsService } from './follows.service';

/** Follow requests of friends-only and private accounts (beyond the spec, issue 2 §4). */
@Controller('follows/requests')
export class FollowRequestsController {
  constructor(private readonly follows: FollowsService) {}

  /** Incoming by default; `?direction=outgoing` lists one's own waiting requests. */
  @Get()
  async list(@CurrentUser() user: AuthenticatedUser, @Query() q: FollowRequestsQueryDto) {
    const window = pageWindow(q);
    const { items, total } = await this.follows.requests(user.id, q.direction, window);
    return Reply.list(items, total, window.page, window.limit);
  }

  @Post(':id/accept')
  @HttpCode(200)
  async accept(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    const o = await this.follows.accept(user.id, p.id);
    return Reply.message(o.message, { status: o.status });
  }

  @Post(':id/reject')
  @HttpCode(200)
  async reject(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    const o = await this.follows.reject(user.id, p.id);
    return Reply.message(o.message, { status: o.status });
  }
}
