import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { CreateReviewDto, PageQueryDto, pageWindow, ReviewQueryDto, UpdateReviewDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ReviewsService } from './reviews.service';

@Controller('reviews')
export class ReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get()
  async list(@CurrentUser() user: AuthenticatedUser, @Query() query: ReviewQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.reviews.list(query, skip, limit, user.id);
    return Reply.list(items, total, page, limit);
  }

  @Get(':id')
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.reviews.get(id, user.id);
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
