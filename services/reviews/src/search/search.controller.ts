import { Controller, Get, Query } from '@nestjs/common';
import { SearchQueryDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser } from '@app/platform';
import { SearchService } from './search.service';

@Controller('reviews/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  /** This service's groups of GET /api/search; the gateway joins them with the others. */
  @Get()
  find(@CurrentUser() user: AuthenticatedUser, @Query() query: SearchQueryDto) {
    return this.search.search(user.id, query.q, query.limit);
  }
}
