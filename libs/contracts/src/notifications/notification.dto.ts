import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQueryDto } from '../http/pagination';
import { UserCard } from '../users/user-card';

/** The notification screen lists up to 50 at once (spec part 2). */
export const NOTIFICATIONS_MAX_LIMIT = 50;

/** Types the web knows by icon (spec part 1 §2), plus the squad ones it shows with a generic icon. */
export const NOTIFICATION_TYPES = [
  'review_liked',
  'comment',
  'new_follower',
  'follow_request',
  'follow_accepted',
  'new_review',
  'squad_join_request',
  'squad_join_approved',
  'squad_join_rejected',
  'review_hidden',
  'squad_mention',
  'comment_hidden',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** One item of GET /notifications (spec part 1 §3). */
export interface NotificationView {
  id: string;
  type: NotificationType;
  message: string;
  is_read: boolean;
  created_at: string;
  /** Who caused it; null only when that member is unknown to this service. */
  related_user: UserCard | null;
  /** Squad notifications: the squad they are about, for the link. */
  squad_id?: string;
}

export interface UnreadCountView {
  unread_count: number;
}

/** Query of GET /notifications: page, limit (default 20, up to 50), unread_only ('true' or 'false'). */
export class NotificationListQueryDto extends PageQueryDto {
  /** Redeclared in full: an override with only @Max loses the parent's @Min(1), and 0 or -1 got through. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(NOTIFICATIONS_MAX_LIMIT)
  override limit = 20;

  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: "unread_only must be 'true' or 'false'" })
  unread_only = false;
}
