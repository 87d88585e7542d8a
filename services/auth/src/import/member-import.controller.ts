import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ImportRoute, ImportRowsDto } from '@app/platform';
import { MemberImportService } from './member-import.service';

/** The members' import over HTTP, for processes that cannot call it in process (the distributed profile). */
@Controller('internal/import')
export class MemberImportController {
  constructor(private readonly members: MemberImportService) {}

  @Post('members')
  @HttpCode(200)
  @ImportRoute()
  import(@Body() body: ImportRowsDto) {
    return this.members.import(body.rows);
  }
}
