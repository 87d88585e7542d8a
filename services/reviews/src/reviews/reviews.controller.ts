import { Body, Controller, Delete, Get, Param, Post, Put, Query, UnauthorizedException } from '@nestjs/common';
import { CreateReviewDto, PageQueryDto, pageWindow, ReviewQueryDto, UpdateReviewDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, OpenToVisitors, Reply } from '@app/platform';
import { ReviewsService } from './reviews.service';

@Controller('reviews')
export class ReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  /** A visitor reads one product's or one member's reviews (public authors only); the whole stream needs a member. */
  @OpenToVisitors()
  @Get()
  async list(@CurrentUser() user: AuthenticatedUser | undefined, @Query() query: ReviewQueryDto) {
    if (!user && !query.productId && !query.userId) throw new UnauthorizedException('Authentication required');
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.reviews.list(query, skip, limit, user?.id ?? '');
    return Reply.list(items, total, page, limit);
  }

  /** A shared review link: visitors read it when its author's profile is public. */
  @OpenToVisitors()
  @Get(':id')
  get(@CurrentUser() user: AuthenticatedUser | undefined, @Param('id') id: string) {
    return this.reviews.get(id, user?.id ?? '');
  }

  /** Earlier versions of an edited review, newest first (issue 21 §3). */
  @Get(':id/history')
  async history(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Query() query: PageQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.reviews.history(id, user.id, skip, limit);
    return Reply.list(items, total, page, limit);
  }

  @Post()
  async create(@CurrentUser() user: AuthenticatedUser, @Body() dto: CreateReviewDto) {
    return Reply.message('Review created', await this.reviews.create(user.id, dto));
  }

  @Put(':id')
  async update(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: UpdateReviewDto) {
    return Reply.message('Review updated', await this.reviews.update(user.id, id, dto));
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.reviews.remove(user.id, id);
    return Reply.message('Review deleted', null);
  }
}
