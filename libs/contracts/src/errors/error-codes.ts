/*
 * Every error code a reply can carry (`ApiFailure.code`), one list per service plus the generic
 * ones any service or the gateway answers with. The web decides its texts by these codes, so a
 * code is never renamed or reused for another meaning. A code's HTTP status: `errorStatus`.
 */

/** `{ NAME: 'NAME', ... }`: values usable as `AuthErrorCode.EMAIL_TAKEN`, keys and values one list. */
function codes<const C extends string>(...names: C[]): { readonly [K in C]: K } {
  return Object.fromEntries(names.map((name) => [name, name])) as { readonly [K in C]: K };
}

/** Raised by the platform, the validation pipe, Fastify or the gateway, whatever the route. */
export const CommonErrorCode = codes(
  'VALIDATION_FAILED',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'INVALID_TOKEN',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
);
export type CommonErrorCode = keyof typeof CommonErrorCode;

export const AuthErrorCode = codes(
  'EMAIL_TAKEN',
  'USERNAME_UNAVAILABLE',
  'INVALID_CREDENTIALS',
  'WEAK_PASSWORD',
  'WRONG_CURRENT_PASSWORD',
  'ACCOUNT_GONE',
  'ACCOUNT_NOT_FOUND',
  'INVALID_RESET_LINK',
  'TWO_FACTOR_ALREADY_ON',
  'TWO_FACTOR_NOT_STARTED',
  'INVALID_TWO_FACTOR_CODE',
  'TWO_FACTOR_CODE_REQUIRED',
  'LOGIN_CHALLENGE_EXPIRED',
  'ACCOUNT_SUSPENDED',
);
export type AuthErrorCode = keyof typeof AuthErrorCode;

export const SocialErrorCode = codes(
  'USER_NOT_FOUND',
  'USERNAME_TAKEN',
  'CANNOT_FOLLOW_SELF',
  'ALREADY_FOLLOWING',
  'FOLLOW_CHANGED',
  'NOT_FOLLOWING',
  'FOLLOW_REQUEST_NOT_FOUND',
  'NOT_A_FOLLOWER',
  'FOLLOW_LIST_HIDDEN',
  'FOLLOW_LIST_PRIVATE',
  'USER_BLOCKED',
  'CANNOT_BLOCK_SELF',
  'ALREADY_BLOCKED',
  'NOT_BLOCKED',
  'CANNOT_MUTE_SELF',
);
export type SocialErrorCode = keyof typeof SocialErrorCode;

export const ReviewsErrorCode = codes(
  'REVIEW_NOT_FOUND',
  'ALREADY_REVIEWED',
  'REVIEW_CHANGED',
  'NOT_REVIEW_AUTHOR',
  'USER_BLOCKED',
  'PRODUCT_NOT_FOUND',
  'NOT_PRODUCT_CREATOR',
  'COMMENT_NOT_FOUND',
  'NOT_COMMENT_AUTHOR',
  'CANNOT_REPORT_OWN_REVIEW',
  'ALREADY_REPORTED',
  'MEDIA_NOT_FOUND',
  'IMAGE_REQUIRED',
  'UNSUPPORTED_IMAGE_TYPE',
  'INVALID_UPLOAD',
  'FILE_TOO_LARGE',
  'LIST_NOT_FOUND',
  'NOT_LIST_OWNER',
  'DEFAULT_LIST_FIXED',
  'FILTER_NOT_FOUND',
  'TOO_MANY_FILTERS',
  'REPORT_NOT_FOUND',
  'MODERATOR_ONLY',
  'ADMIN_ONLY',
  'MODERATION_TARGET_NOT_FOUND',
  'CANNOT_MODERATE_SELF',
  'CANNOT_REPORT_OWN_COMMENT',
);
export type ReviewsErrorCode = keyof typeof ReviewsErrorCode;

export const SquadsErrorCode = codes(
  'SQUAD_NOT_FOUND',
  'SQUAD_ROLE_REQUIRED',
  'ALREADY_MEMBER',
  'NOT_A_MEMBER',
  'MEMBER_NOT_FOUND',
  'ADMINS_CANNOT_LEAVE',
  'ADMIN_NOT_REMOVABLE',
  'LAST_ADMIN',
  'BLOCKED_BY_ADMIN',
  'JOIN_REQUEST_NOT_FOUND',
  'JOIN_REQUEST_PENDING',
  'JOIN_REQUEST_DECIDED',
);
export type SquadsErrorCode = keyof typeof SquadsErrorCode;

export const MessagingErrorCode = codes(
  'CONVERSATION_NOT_FOUND',
  'NOT_IN_CONVERSATION',
  'INVALID_MEMBERS',
  'USER_BLOCKED',
  'SQUAD_CHAT_NOT_FOUND',
  'NOT_IN_SQUAD_CHAT',
  'MESSAGE_NOT_FOUND',
  'NOT_MESSAGE_SENDER',
  'MESSAGE_DELETED',
  'RECIPIENT_DELETED',
);
export type MessagingErrorCode = keyof typeof MessagingErrorCode;

export const NotificationsErrorCode = codes('NOTIFICATION_NOT_FOUND');
export type NotificationsErrorCode = keyof typeof NotificationsErrorCode;

/** Every code an error envelope may carry: the union the web switches on. */
export type ErrorCode =
  | CommonErrorCode
  | AuthErrorCode
  | SocialErrorCode
  | ReviewsErrorCode
  | SquadsErrorCode
  | MessagingErrorCode
  | NotificationsErrorCode;
