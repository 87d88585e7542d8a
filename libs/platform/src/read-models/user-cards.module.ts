import { DynamicModule, Module } from '@nestjs/common';
import { UserCardsEvents } from './user-cards.events';
import { UserCardsOptions, USER_CARDS_OPTIONS, UserCardsReadModel } from './user-cards.service';

/**
 * The user-card read model with its event handlers. Import `forRoot` once, in the service
 * definition (a second import would register the handlers twice); it is global, so every
 * feature module can inject `UserCardsReadModel`. List its collection in the definition too.
 */
@Module({})
export class UserCardsModule {
  static forRoot(options: UserCardsOptions = {}): DynamicModule {
    return {
      module: UserCardsModule,
      global: true,
      controllers: [UserCardsEvents],
      providers: [{ provide: USER_CARDS_OPTIONS, useValue: options }, UserCardsReadModel],
      exports: [UserCardsReadModel],
    };
  }
}
