import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  CreateSquadDto,
  DiscoverSquadsQueryDto,
  listMeta,
  PageQueryDto,
  pageWindow,
  SquadPagination,
  SquadParamsDto,
  UpdateSquadDto,
} from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { MembersService } from '../members/members.service';
import { RequireSquadRole } from '../members/require-squad-role';
import { ONLY_ADMINS_UPDATE, SquadsService } from './squads.service';

/** Fixed paths come before `:id` so that they are matched first. */
@Controller('squads')
export class SquadsController {
  constructor(
    private readonly squads: SquadsService,
    private readonly members: MembersService,
  ) {}

  @Get('my-squads')
  async mine(@Query() query: PageQueryDto, @CurrentUser() user: AuthenticatedUser) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.squads.mine(user.id, skip, limit);
    return Reply.list(items, total, page, limit);
  }

  /** The web reads `pagination.totalPages` (spec part 2 §7), so it is sent beside `meta`. */
  @Get('discover')
  async discover(@Query() query: DiscoverSquadsQueryDto, @CurrentUser() user: AuthenticatedUser) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.squads.discover(query, user.id, skip, limit);
    const meta = { ...listMeta(total, page, limit) };
    const pagination: SquadPagination = { totalPages: meta.totalPages, page, limit, total };
    return new Reply(items, undefined, meta, { pagination });
  }

  @Get('stats')
  stats(@CurrentUser() user: AuthenticatedUser) {
    return this.members.stats(user.id);
  }

  @Post()
  async create(@Body() dto: CreateSquadDto, @CurrentUser() user: AuthenticatedUser) {
    return Reply.message('Squad created successfully', await this.squads.create(dto, user));
  }

  @Get(':id')
  detail(@Param() params: SquadParamsDto, @CurrentUser() user: AuthenticatedUser) {
    return this.squads.detail(params.id, user.id);
  }

  @RequireSquadRole(['admin'], ONLY_ADMINS_UPDATE)
  @Put(':id')
  async update(@Param() params: SquadParamsDto, @Body() dto: UpdateSquadDto, @CurrentUser() user: AuthenticatedUser) {
    return Reply.message('Squad updated successfully', await this.squads.update(params.id, dto, user));
  }

  @Delete(':id')
  async remove(@Param() params: SquadParamsDto, @CurrentUser() user: AuthenticatedUser) {
    await this.squads.remove(params.id, user);
    return Reply.message('Squad deleted successfully', null);
  }
}
