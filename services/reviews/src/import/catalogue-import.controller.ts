import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ImportRoute, ImportRowsDto } from '@app/platform';
import { CatalogueImportService } from './catalogue-import.service';

/** The catalogue's imports over HTTP, for processes that cannot call them in process (the distributed profile). */
@Controller('internal/import')
export class CatalogueImportController {
  constructor(private readonly catalogue: CatalogueImportService) {}

  @Post('products')
  @HttpCode(200)
  @ImportRoute()
  importProducts(@Body() body: ImportRowsDto) {
    return this.catalogue.importProducts(body.rows);
  }

  @Post('reviews')
  @HttpCode(200)
  @ImportRoute()
  importReviews(@Body() body: ImportRowsDto) {
    return this.catalogue.importReviews(body.rows);
  }
}
