import { Module } from '@nestjs/common';
import { FollowsModule } from '../follows/follows.module';
import { FollowImportService } from './follow-import.service';

/** The bulk import of follows: no route, called in process by the launcher (docs/decisions/import.md). */
@Module({
  imports: [FollowsModule],
  providers: [FollowImportService],
  exports: [FollowImportService],
})
export class ImportModule {}
