import { Global, Module } from '@nestjs/common';
import { MutesEvents } from './mutes.events';
import { MutesReadModel } from './mutes.service';

/**
 * The mute read model with its event handlers. Import it once, in the service definition; it is
 * global, so every feature module can inject `MutesReadModel`. List `mutesCollection` there too.
 */
@Global()
@Module({
  controllers: [MutesEvents],
  providers: [MutesReadModel],
  exports: [MutesReadModel],
})
export class MutesModule {}
