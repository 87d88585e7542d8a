import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { CreateProductDto, pageWindow, ProductQueryDto, UpdateProductDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, OpenToVisitors, Reply } from '@app/platform';
import { ProductsService } from './products.service';

@Controller('products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  async list(@CurrentUser() user: AuthenticatedUser, @Query() query: ProductQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.products.list(query, skip, limit, user.id);
    return Reply.list(items, total, page, limit);
  }

  /** A shared product link: visitors read it too, with no marks of their own. */
  @OpenToVisitors()
  @Get(':idOrSlug')
  get(@CurrentUser() user: AuthenticatedUser | undefined, @Param('idOrSlug') idOrSlug: string) {
    return this.products.get(idOrSlug, user?.id ?? '');
  }

  @Post()
  async create(@CurrentUser() user: AuthenticatedUser, @Body() dto: CreateProductDto) {
    return Reply.message('Product created', await this.products.create(user.id, dto));
  }

  @Put(':id')
  async update(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: UpdateProductDto) {
    return Reply.message('Product updated', await this.products.update(user.id, id, dto));
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.products.remove(user.id, id);
    return Reply.message('Product deleted', null);
  }
}
