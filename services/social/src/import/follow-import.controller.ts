import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ImportRoute, ImportRowsDto } from '@app/platform';
import { FollowImportService } from './follow-import.service';

/** The follows' import over HTTP, for processes that cannot call it in process (the distributed profile). */
@Controller('internal/import')
export class FollowImportController {
  constructor(private readonly follows: FollowImportService) {}

  @Post('follows')
  @HttpCode(200)
  @ImportRoute()
  import(@Body() body: ImportRowsDto) {
    return this.follows.import(body.rows);
  }
}
