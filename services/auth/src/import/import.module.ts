import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MemberImportService } from './member-import.service';
import { MemberImportController } from './member-import.controller';

/** The bulk import of members: called in process by the embedded launcher, over /api/internal/import with IMPORT_TOKEN by the others (docs/decisions/import.md). */
@Module({
  imports: [AuthModule],
  controllers: [MemberImportController],
  providers: [MemberImportService],
  exports: [MemberImportService],
})
export class ImportModule {}
