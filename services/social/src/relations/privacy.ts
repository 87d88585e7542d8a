import { PrivacyProfile } from '@app/contracts';

/** Who stands where relative to an account's owner, as far as visibility goes. */
export interface Standing {
  isSelf: boolean;
  /** A block exists in either direction. */
  blocked: boolean;
  /** An accepted (not pending) follow from the viewer to the owner. */
  approvedFollower: boolean;
}

/**
 * May the viewer see an account's reviews, followers and following? (docs/decisions/social.md)
 * 'friends' and 'private' both mean approved followers only; the profile header is always visible.
 */
export function canViewContent(privacy: PrivacyProfile, standing: Standing): boolean {
  if (standing.isSelf) return true;
  if (standing.blocked) return false;
  return privacy === 'public' || standing.approvedFollower;
}

/** Accounts that are not public take follow requests instead of follows. */
export function needsApproval(privacy: PrivacyProfile): boolean {
  return privacy !== 'public';
}

/** Private accounts can be found by search but are never pushed in People to Follow. */
export function isSuggestible(privacy: PrivacyProfile): boolean {
  return privacy !== 'private';
}
