import { JoinRequestStatus, SquadCategory, SquadRole } from './squads.dto';

/** A member as the squad screens show one (spec part 2 §3, "Squad member"). */
export interface SquadMemberView {
  id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  role: SquadRole;
  joined_at: string;
}

export interface SquadSampleMember {
  id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
}

/** Spec part 2 §3, "Squad". `members` is sent by the detail route only. */
export interface SquadView {
  id: string;
  name: string;
  description: string;
  category: SquadCategory;
  created_at: string;
  updated_at: string;
  creator_id: string;
  creator_name: string;
  creator_username: string;
  creator_avatar: string | null;
  member_count: number;
  sample_members: SquadSampleMember[];
  members?: SquadMemberView[];
  is_member: boolean;
  /** For a non-member: the latest request's state while pending or rejected, else null. */
  join_request_status: Extract<JoinRequestStatus, 'pending' | 'rejected'> | null;
  user_role: SquadRole | null;
  /** The detail route only: the last 7 days, counted from data (issue 43 §2). */
  week?: SquadWeek;
}

/** A squad's last 7 days: its chat's messages and its members' reviews. */
export interface SquadWeek {
  messages: number;
  reviews: number;
}

export interface JoinRequestView {
  id: string;
  squad_id: string;
  status: JoinRequestStatus;
  message: string | null;
  created_at: string;
  decided_at: string | null;
  user: { id: string; display_name: string; username: string; profile_image_url: string | null };
}

export interface SquadStats {
  total_squads: number;
  admin_squads: number;
  moderator_squads: number;
}

/** The discover reply also carries this at top level: the web reads `pagination.totalPages`. */
export interface SquadPagination {
  totalPages: number;
  page: number;
  limit: number;
  total: number;
}
