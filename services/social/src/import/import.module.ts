import { Module } from '@nestjs/common';
import { FollowsModule } from '../follows/follows.module';
import { FollowImportService } from './follow-import.service';
import { FollowImportController } from './follow-import.controller';

/** The bulk import of follows: called in process by the embedded launcher, over /api/internal/import with IMPORT_TOKEN by the others (docs/decisions/import.md). */
@Module({
  imports: [FollowsModule],
  controllers: [FollowImportController],
  providers: [FollowImportService],
  exports: [FollowImportService],
})
export class ImportModule {}
