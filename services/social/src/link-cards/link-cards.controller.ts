import { Controller, Get, Param } from '@nestjs/common';
import { Public } from '@app/platform';
import { LinkCardsService } from './link-cards.service';

/** Public reads for the gateway's link previews (gateway/src/link-cards); the gateway routes no client here. */
@Controller('cards')
export class LinkCardsController {
  constructor(private readonly cards: LinkCardsService) {}

  @Public()
  @Get('users/:username')
  profile(@Param('username') username: string) {
    return this.cards.profile(username);
  }
}
