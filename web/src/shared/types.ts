/**
 * Reply shapes the web reads. Auth, envelope and user-card types come from @app/contracts;
 * the other areas are declared here from the spec (part 1 §3, part 2 §3) until their
 * services publish them in libs/contracts, then these become re-exports.
 */
import type { UserCard, ListMeta } from '@app/contracts';
export type { AuthUser, AuthResult, UserCard, ListMeta, ApiSuccess, ApiList, ApiFailure } from '@app/contracts';

export interface FollowStatus {
  isFollowing: boolean;
  isFollowed: boolean;
  isPending: boolean;
  isBlocked: boolean;
  isBlockedBy: boolean;
}

export interface UserProfile {
  id: string;
  username: string;
  display_name: string;
  name?: string;
  bio: string | null;
  email?: string | null;
  profile_image_url: string | null;
  created_at: string;
  followers_count: number;
  following_count: number;
  reviews_count: number;
  follow_status?: FollowStatus;
  privacy_profile?: 'public' | 'friends' | 'private';
}

export interface PersonCard extends UserCard {
  bio?: string | null;
  name?: string;
  avatar?: string | null;
  follow_status?: Partial<FollowStatus>;
}

export interface UserStats {
  reviewsCount: number;
  squadsCount: number;
  friendsCount: number;
}

export interface UserSettings {
  notification_email: boolean;
  notification_push: boolean;
  privacy_profile: 'public' | 'friends' | 'private';
  theme: 'light' | 'dark' | 'system';
  language?: string;
}

export interface ProductCard {
  id: string;
  slug?: string;
  name: string;
  image_url?: string | null;
  image?: string | null;
}

export interface Product {
  id: string;
  slug?: string;
  name: string;
  brand?: string;
  description?: string;
  price: number;
  category: string;
  image?: string | null;
  image_url?: string | null;
  features?: string[] | string;
  rating?: number;
  average_rating?: number;
  review_count?: number;
  reviews_count?: number;
  like_count?: number;
  liked?: boolean;
  saved?: boolean;
  createdAt?: string;
  created_at?: string;
  userId?: string;
  user?: { id: string; name?: string; username?: string; display_name?: string } | null;
}

export interface Review {
  id: string;
  user_id: string;
  product_id: string | null;
  rating: number | null;
  title?: string | null;
  content: string;
  created_at: string;
  updated_at?: string;
  edited?: boolean;
  likes?: number;
  like_count?: number;
  liked?: boolean;
  saved?: boolean;
  comment_count?: number;
  comments_count?: number;
  share_count?: number;
  images?: string[];
  location?: string | null;
  date?: string | null;
  user?: UserCard | null;
  product?: ProductCard | null;
}

export interface Comment {
  id: string;
  reviewId?: string;
  review_id?: string;
  userId?: string;
  user_id?: string;
  content: string;
  createdAt?: string;
  created_at?: string;
  user?: UserCard | null;
}

export interface LikeStatus {
  liked: boolean;
  like_count: number;
}

export type NotificationType =
  | 'review_liked'
  | 'comment'
  | 'new_follower'
  | 'follow_request'
  | 'follow_accepted'
  | 'new_review'
  | string;

export interface AppNotification {
  id: string;
  type: NotificationType;
  message: string;
  is_read: boolean;
  created_at: string;
  related_user?: { id?: string; display_name?: string; username?: string; profile_image_url?: string | null } | null;
  data?: Record<string, unknown>;
}

export interface TrendingTopic {
  id?: string;
  topic?: string;
  name?: string;
  category?: string;
  slug?: string;
  count?: number;
  reviews_this_week?: number;
  change?: number;
  percent_change?: number;
  change_percent?: number;
  reviews_last_week?: number;
}

export interface SquadMember {
  id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  role: 'admin' | 'moderator' | 'member';
  joined_at: string;
}

export interface Squad {
  id: string;
  name: string;
  description: string | null;
  category: string;
  created_at: string;
  creator_id?: string;
  creator_name?: string;
  creator_username?: string;
  creator_avatar?: string | null;
  member_count: number;
  sample_members?: Array<{ display_name: string; username: string; profile_image_url: string | null }>;
  members?: SquadMember[];
  is_member?: boolean;
  join_request_status?: 'pending' | 'rejected' | null;
  user_role?: 'admin' | 'moderator' | 'member' | null;
  conversation_id?: string | null;
  rating?: number | null;
  activity_level?: string | null;
}

export interface SquadStats {
  total_squads: number;
  admin_squads: number;
  moderator_squads: number;
}

export interface JoinRequest {
  id: string;
  created_at: string;
  message?: string | null;
  status?: string;
  user: { id?: string; display_name?: string; username?: string; profile_image_url?: string | null };
}

export interface MessageSender {
  id?: string;
  display_name?: string;
  username?: string;
  profile_image_url?: string | null;
}

export interface Message {
  id: string;
  conversation_id: string;
  sender_id: string;
  sender?: MessageSender;
  content: string;
  created_at: string;
}

export interface Conversation {
  id: string;
  name?: string | null;
  type?: string;
  squad_id?: string | null;
  other_members: MessageSender[];
  members?: Array<MessageSender | string>;
  last_message?: { id: string; content: string; sender?: MessageSender | string; created_at: string } | null;
  created_at: string;
  updated_at: string;
  unread_count?: number;
}

export interface Activity {
  id: string;
  type: string;
  user?: { display_name?: string; username?: string; profile_image_url?: string | null };
  data?: { squad?: { id: string; name?: string } } & Record<string, unknown>;
  created_at: string;
}

export interface Paged<T> {
  items: T[];
  meta: ListMeta;
}
