import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { pageWindow, SavedQueryDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { SavedService } from './saved.service';

@Controller('saved')
export class SavedController {
  constructor(private readonly saved: SavedService) {}

  /** ?type=products (default) or reviews: the two tabs of the saved items page. */
  @Get()
  async list(@CurrentUser() user: AuthenticatedUser, @Query() query: SavedQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } =
      query.type === 'reviews'
        ? await this.saved.reviewsOf(user.id, skip, limit)
        : await this.saved.productsOf(user.id, skip, limit);
    return Reply.list<unknown>(items, total, page, limit, { type: query.type ?? 'products' });
  }

  @Post('products/:id')
  @HttpCode(200)
  saveProduct(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.saved.save(user.id, 'product', id);
  }

  @Delete('products/:id')
  unsaveProduct(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.saved.unsave(user.id, 'product', id);
  }

  @Post('reviews/:id')
  @HttpCode(200)
  saveReview(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.saved.save(user.id, 'review', id);
  }

  @Delete('reviews/:id')
  unsaveReview(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.saved.unsave(user.id, 'review', id);
  }
}
