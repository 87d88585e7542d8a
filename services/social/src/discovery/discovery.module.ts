import { Module } from '@nestjs/common';
import { ProfilesModule } from '../profiles/profiles.module';
import { RelationsModule } from '../relations/relations.module';
import { DiscoveryController } from './discovery.controller';
import { DiscoveryService } from './discovery.service';

@Module({
  imports: [ProfilesModule, RelationsModule],
  controllers: [DiscoveryController],
  providers: [DiscoveryService],
})
export class DiscoveryModule {}
