import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../http/pagination';
import { UserCard } from '../users/user-card';

/** data.status of POST /follows/users/{id} (spec part 1 §4); 'none' after an unfollow or cancel. */
export type FollowState = 'following' | 'pending' | 'none';

export interface FollowResult {
  status: FollowState;
}

/** One row of a followers, following, requests or blocked list. */
export interface ConnectionRow extends UserCard {
  bio: string;
  /** When the follow began, the request was sent, or the block was made. */
  since: string;
}

export type RequestDirection = 'incoming' | 'outgoing';

export class FollowRequestsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(['incoming', 'outgoing'], { message: 'direction must be incoming or outgoing' })
  direction: RequestDirection = 'incoming';
}
