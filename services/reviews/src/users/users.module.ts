import { Global, Module } from '@nestjs/common';
import { UserCardsEvents } from './user-cards.events';
import { UserCardsService } from './user-cards.service';

/** Author cards for every feature of the service. */
@Global()
@Module({
  controllers: [UserCardsEvents],
  providers: [UserCardsService],
  exports: [UserCardsService],
})
export class UsersModule {}
