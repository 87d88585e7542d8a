import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { AddListItemDto, CreateListDto, ListItemsQueryDto, ListsQueryDto, pageWindow, UpdateListDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ListsService } from './lists.service';

/** /lists, not /users/:id/lists: /api/users belongs to the social service in the gateway. */
@Controller('lists')
export class ListsController {
  constructor(private readonly lists: ListsService) {}

  @Get()
  async listsOf(@CurrentUser() user: AuthenticatedUser, @Query() query: ListsQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.lists.listsOf(query.userId ?? user.id, user.id, skip, limit, query.productId);
    return Reply.list(items, total, page, limit);
  }

  @Post()
  create(@CurrentUser() user: AuthenticatedUser, @Body() dto: CreateListDto) {
    return this.lists.create(user.id, dto);
  }

  @Get(':id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Query() query: ListItemsQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { list, items, total } = await this.lists.get(id, user.id, skip, limit);
    return new Reply({ ...list, items }, undefined, Reply.list(items, total, page, limit).meta);
  }

  @Put(':id')
  update(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: UpdateListDto) {
    return this.lists.update(user.id, id, dto);
  }

  @Delete(':id')
  remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.lists.remove(user.id, id);
  }

  @Post(':id/items')
  @HttpCode(200)
  addItem(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: AddListItemDto) {
    return this.lists.addItem(user.id, id, dto);
  }

  @Delete(':id/items/:productId')
  removeItem(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Param('productId') productId: string) {
    return this.lists.removeItem(user.id, id, productId);
  }
}
