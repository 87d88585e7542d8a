import { Controller, Get, Query } from '@nestjs/common';
import { pageWindow, SuggestionRow, SuggestionsQueryDto, UserSearchQueryDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { DiscoveryService } from './discovery.service';

@Controller('users')
export class DiscoveryController {
  constructor(private readonly discovery: DiscoveryService) {}

  /** GET /users/search?search=: display name or username, case-insensitive; empty lists everyone. */
  @Get('search')
  async search(@CurrentUser() user: AuthenticatedUser, @Query() q: UserSearchQueryDto) {
    const window = pageWindow(q);
    const { items, total } = await this.discovery.search(user.id, q.search, window);
    return Reply.list(items, total, window.page, window.limit);
  }

  /** GET /users/suggestions?limit=4: the People to Follow panel and the Friends page. */
  @Get('suggestions')
  suggestions(@CurrentUser() user: AuthenticatedUser, @Query() q: SuggestionsQueryDto): Promise<SuggestionRow[]> {
    return this.discovery.suggestions(user.id, q.limit);
  }
}
