import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { LikeStatus, PageQueryDto, pageWindow } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ProductsService } from '../products/products.service';
import { LikesService } from './likes.service';

@Controller('likes')
export class LikesController {
  constructor(
    private readonly likes: LikesService,
    private readonly products: ProductsService,
  ) {}

  @Post('reviews/:id')
  @HttpCode(200)
  toggle(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.likes.toggle(user.id, id);
  }

  @Get('reviews/:id/status')
  status(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.likes.status(user.id, id);
  }

  @Post('products/:id')
  @HttpCode(200)
  async toggleProduct(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<LikeStatus> {
    const { liked, like_count } = await this.products.toggleLike(user.id, id);
    return { liked, like_count };
  }

  @Get('products/:id/status')
  productStatus(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.products.likeStatus(user.id, id);
  }

  @Get('reviews/:id/users')
  async users(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Query() query: PageQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.likes.likers(id, user.id, skip, limit);
    return Reply.list(items, total, page, limit);
  }
}
