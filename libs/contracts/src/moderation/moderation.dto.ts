import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../http/pagination';
import type { UserCard } from '../users/user-card';

/** Site roles (issue 22 §3), kept by auth and carried in the access token as `role`. */
export const ROLES = ['member', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** What an admin may appoint: admins come only from being first or from ADMIN_EMAILS. */
export const APPOINTABLE_ROLES = ['member', 'moderator'] as const;
export type AppointableRole = (typeof APPOINTABLE_ROLES)[number];

export const isModerator = (role: Role | undefined): boolean => role === 'moderator' || role === 'admin';

export const MODERATION_REASON_MAX = 500;
/** A suspension lasts at most a year; longer is a policy question, not a moderator's button. */
export const SUSPENSION_HOURS_MAX = 24 * 365;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Every moderation action says why; the reason goes to the log (and to a hidden content's author). */
export class ModerationReasonDto {
  @Transform(trim)
  @IsString({ message: 'reason must be a string' })
  @IsNotEmpty({ message: 'reason is required' })
  @MaxLength(MODERATION_REASON_MAX, { message: `reason must be at most ${MODERATION_REASON_MAX} characters` })
  reason!: string;
}

/** POST /moderation/suspensions/{userId}: the member cannot use their account for `hours` from now. */
export class SuspendMemberDto extends ModerationReasonDto {
  @IsInt({ message: 'hours must be a whole number' })
  @Min(1, { message: 'hours must be at least 1' })
  @Max(SUSPENSION_HOURS_MAX, { message: `hours must be at most ${SUSPENSION_HOURS_MAX}` })
  hours!: number;
}

/** PUT /moderation/roles/{userId} (admins only). */
export class SetRoleDto extends ModerationReasonDto {
  @IsIn(APPOINTABLE_ROLES, { message: `role must be one of ${APPOINTABLE_ROLES.join(', ')}` })
  role!: AppointableRole;
}

export const REPORT_STATUSES = ['open', 'dismissed', 'actioned'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** GET /moderation/reports: open ones unless asked otherwise. */
export class ModerationReportsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(REPORT_STATUSES, { message: `status must be one of ${REPORT_STATUSES.join(', ')}` })
  status?: ReportStatus;

  /** Cache busters some clients add. */
  @IsOptional() @Type(() => String) @IsString() _?: string;
}

export class ModerationLogQueryDto extends PageQueryDto {
  @IsOptional() @Type(() => String) @IsString() _?: string;
}

/** The reported review as moderators see it, hidden or not. */
export interface ModeratedReviewView {
  id: string;
  title: string;
  content: string;
  hidden: boolean;
  user: UserCard;
}

/** A reported comment as moderators see it, hidden or not. */
export interface ModeratedCommentView {
  id: string;
  review_id: string;
  content: string;
  hidden: boolean;
  user: UserCard;
}

export interface ModerationReportView {
  id: string;
  /** What was reported: a review, or a comment (issue 22 §3). */
  kind: 'review' | 'comment';
  status: ReportStatus;
  reason: string | null;
  reporter: UserCard;
  created_at: string;
  /** The reported review, or the review the reported comment is on; null when deleted since. */
  review: ModeratedReviewView | null;
  /** A comment report's comment; null for a review report or when the comment was deleted since. */
  comment: ModeratedCommentView | null;
}

export const MODERATION_ACTIONS = ['dismiss', 'hide', 'unhide', 'suspend', 'role', 'hide_comment', 'unhide_comment'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** One line of the moderation log: who did what to whom, why and when. */
export interface ModerationLogEntryView {
  id: string;
  action: ModerationAction;
  actor: UserCard;
  target_user: UserCard;
  /** The report, review or member acted on. */
  target_id: string;
  reason: string;
  /** suspend: until when. */
  until: string | null;
  /** role: the new role. */
  role: AppointableRole | null;
  created_at: string;
}
