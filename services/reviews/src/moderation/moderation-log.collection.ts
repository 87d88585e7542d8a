import { AppointableRole, ModerationAction } from '@app/contracts';
import { defineCollection } from '@app/store';

/** One moderation action (issue 22 §3): who did what to whom, why and when. Never edited or removed. */
export interface ModerationLogDoc {
  _id: string;
  action: ModerationAction;
  actor_id: string;
  /** The member affected: the reported review's author, the suspended or appointed member. */
  target_user_id: string;
  /** The report, review or member acted on. */
  target_id: string;
  reason: string;
  until: string | null;
  role: AppointableRole | null;
  created_at: string;
}

export const moderationLogCollection = defineCollection<ModerationLogDoc>('moderation_log', [
  { fields: { created_at: -1 } },
]);
