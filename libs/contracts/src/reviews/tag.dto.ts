import { IsString, Matches } from 'class-validator';
import { TAG_MESSAGE, TAG_PATTERN } from './hashtags';

/** `/tags/:tag/...`: the tag without its `#`, in any case (the service stores it lower-cased). */
export class TagParamDto {
  @IsString()
  @Matches(TAG_PATTERN, { message: TAG_MESSAGE })
  tag!: string;
}

/** GET /tags/{tag}: the tag's stored form and whether the viewer follows it. */
export interface TagView {
  tag: string;
  following: boolean;
}

/** One entry of GET /trending/tags: the same window and counts as the categories. */
export interface TrendingTag {
  tag: string;
  reviews_this_week: number;
  reviews_last_week: number;
  /** As a topic's: null when last week had none. */
  change_percent: number | null;
}
