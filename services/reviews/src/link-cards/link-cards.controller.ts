import { Controller, Get, Param } from '@nestjs/common';
import { Public } from '@app/platform';
import { LinkCardsService } from './link-cards.service';

/** Public reads for the gateway's link previews (gateway/src/link-cards); the gateway routes no client here. */
@Controller('cards')
export class LinkCardsController {
  constructor(private readonly cards: LinkCardsService) {}

  @Public()
  @Get('catalogue')
  catalogue() {
    return this.cards.catalogue();
  }

  @Public()
  @Get('products/:idOrSlug')
  product(@Param('idOrSlug') idOrSlug: string) {
    return this.cards.product(idOrSlug);
  }

  @Public()
  @Get('reviews/:id')
  review(@Param('id') id: string) {
    return this.cards.review(id);
  }
}
