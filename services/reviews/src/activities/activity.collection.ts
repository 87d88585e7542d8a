import { ActivityType, ActivityView } from '@app/contracts';
import { defineCollection } from '@app/store';

export interface ActivityDoc {
  _id: string;
  type: ActivityType;
  /** Who did it. */
  user_id: string;
  data: ActivityView['data'];
  /** The review it is about, for clean-up when the review goes. */
  review_id: string | null;
  /** That review's author: activities about a review the viewer may not see are left out. */
  review_author_id: string | null;
  /** Id of the event that made it: a redelivered event cannot add it twice. */
  source_id: string;
  created_at: string;
  /** squad_join: the squad's updated_at of the rename that set `data.squad.name`; an older rename arriving late is ignored. */
  squad_name_at?: string;
}

export const activitiesCollection = defineCollection<ActivityDoc>('activities', [
  { fields: { source_id: 1 }, unique: true },
  { fields: { user_id: 1 }, orderBy: { created_at: -1 } },
  // By review, then member: an unlike removes its activity without reading the liker's others.
  { fields: { review_id: 1, user_id: 1 } },
  // squad.updated renames the squad in its join activities.
  { fields: { 'data.squad.id': 1 }, sparse: true },
]);
