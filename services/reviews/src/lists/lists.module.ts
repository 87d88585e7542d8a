import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { ListsController } from './lists.controller';
import { ListsEvents } from './lists.events';
import { ListsService } from './lists.service';

@Module({
  imports: [ProductsModule],
  controllers: [ListsController, ListsEvents],
  providers: [ListsService],
})
export class ListsModule {}
