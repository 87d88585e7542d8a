import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MemberImportService } from './member-import.service';

/** The bulk import of members: no route, called in process by the launcher (docs/decisions/import.md). */
@Module({
  imports: [AuthModule],
  providers: [MemberImportService],
  exports: [MemberImportService],
})
export class ImportModule {}
