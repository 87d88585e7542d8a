import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { CreateKeywordFilterDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { KeywordFilterService } from './keyword-filter.service';

@Controller('filters')
export class KeywordFilterController {
  constructor(private readonly filters: KeywordFilterService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser) {
    return this.filters.list(user.id);
  }

  @Post()
  create(@CurrentUser() user: AuthenticatedUser, @Body() dto: CreateKeywordFilterDto) {
    return this.filters.create(user.id, dto);
  }

  @Get(':id')
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.filters.get(user.id, id);
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.filters.remove(user.id, id);
    return Reply.message('Filter deleted', null);
  }
}
