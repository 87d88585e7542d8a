import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { FeedQueryDto, pageWindow, tagKey, TagParamDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ReviewsService } from '../reviews/reviews.service';
import { TagsService } from './tags.service';

/** Hashtags (issue 21 §6): a tag's reviews and following a tag. */
@Controller('tags')
export class TagsController {
  constructor(
    private readonly tags: TagsService,
    private readonly reviews: ReviewsService,
  ) {}

  @Get(':tag')
  view(@CurrentUser() user: AuthenticatedUser, @Param() { tag }: TagParamDto) {
    return this.tags.view(user.id, tag);
  }

  /** Paged like the feed (page and limit, 10 by default). */
  @Get(':tag/reviews')
  async reviewsOf(@CurrentUser() user: AuthenticatedUser, @Param() { tag }: TagParamDto, @Query() query: FeedQueryDto) {
    const { page, limit, skip } = pageWindow(query, 10);
    const { items, total } = await this.reviews.tagged(tagKey(tag), user.id, skip, limit);
    return Reply.list(items, total, page, limit);
  }

  /** 200 like the other idempotent follows: a repeat changes nothing. */
  @Post(':tag/follow')
  @HttpCode(200)
  async follow(@CurrentUser() user: AuthenticatedUser, @Param() { tag }: TagParamDto) {
    return Reply.message('Tag followed', await this.tags.follow(user.id, tag));
  }

  @Delete(':tag/follow')
  async unfollow(@CurrentUser() user: AuthenticatedUser, @Param() { tag }: TagParamDto) {
    return Reply.message('Tag unfollowed', await this.tags.unfollow(user.id, tag));
  }
}
