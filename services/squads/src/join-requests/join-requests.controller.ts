import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  DecideJoinRequestDto,
  JoinRequestParamsDto,
  JoinRequestsQueryDto,
  JoinSquadDto,
  pageWindow,
  SquadParamsDto,
} from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { MANAGER_ROLES } from '../members/squad-access.service';
import { RequireSquadRole } from '../members/require-squad-role';
import { JoinRequestsService, ONLY_MANAGERS_DECIDE, ONLY_MANAGERS_VIEW } from './join-requests.service';

@Controller('squads/:id')
export class JoinRequestsController {
  constructor(private readonly requests: JoinRequestsService) {}

  @Post('request-join')
  async request(@Param() params: SquadParamsDto, @Body() dto: JoinSquadDto, @CurrentUser() user: AuthenticatedUser) {
    return Reply.message('Join request sent', await this.requests.request(params.id, user, dto.message));
  }

  @RequireSquadRole(MANAGER_ROLES, ONLY_MANAGERS_VIEW)
  @Get('join-requests')
  async list(@Param() params: SquadParamsDto, @Query() query: JoinRequestsQueryDto, @CurrentUser() user: AuthenticatedUser) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.requests.list(params.id, user, query.status, skip, limit);
    return Reply.list(items, total, page, limit);
  }

  @RequireSquadRole(MANAGER_ROLES, ONLY_MANAGERS_DECIDE)
  @Post('join-requests/:requestId')
  @HttpCode(200)
  async decide(
    @Param() params: JoinRequestParamsDto,
    @Body() dto: DecideJoinRequestDto,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const request = await this.requests.decide(params.id, params.requestId, user, dto.action);
    return Reply.message(dto.action === 'approve' ? 'Join request approved' : 'Join request rejected', request);
  }
}
