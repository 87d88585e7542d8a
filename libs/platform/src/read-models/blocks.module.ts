import { Global, Module } from '@nestjs/common';
import { BlocksEvents } from './blocks.events';
import { BlocksReadModel } from './blocks.service';

/**
 * The block read model with its event handlers. Import it once, in the service definition; it is
 * global, so every feature module can inject `BlocksReadModel`. List `blocksCollection` there too.
 */
@Global()
@Module({
  controllers: [BlocksEvents],
  providers: [BlocksReadModel],
  exports: [BlocksReadModel],
})
export class BlocksModule {}
