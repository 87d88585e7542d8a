import { Module } from '@nestjs/common';
import { KeywordFilterController } from './keyword-filter.controller';
import { KeywordFilterService } from './keyword-filter.service';

/** Keyword filters (issue 22 §2): tags and search import this module and call KeywordFilterService.visibleFor. */
@Module({
  controllers: [KeywordFilterController],
  providers: [KeywordFilterService],
  exports: [KeywordFilterService],
})
export class KeywordFilterModule {}
