import { Module } from '@nestjs/common';
import { SiteRolesEvents } from './site-roles.events';
import { SiteRolesReadModel } from './site-roles.service';

@Module({
  controllers: [SiteRolesEvents],
  providers: [SiteRolesReadModel],
  exports: [SiteRolesReadModel],
})
export class SiteRolesModule {}
