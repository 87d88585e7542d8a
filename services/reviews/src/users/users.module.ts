import { Global, Module } from '@nestjs/common';
import { UserCardsModule } from '@app/platform';
import { UserCardsService } from './user-cards.service';

/** Author cards for every feature of the service; the read model and its handlers are the shared ones. */
@Global()
@Module({
  imports: [UserCardsModule.forRoot()],
  providers: [UserCardsService],
  exports: [UserCardsService],
})
export class UsersModule {}
