import { ErrorCode } from './error-codes';

/**
 * The HTTP status of each code: one exhaustive switch, so a code cannot have two statuses and a
 * new code does not compile until it has one.
 */
export function errorStatus(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_FAILED':
    case 'BAD_REQUEST':
    case 'WEAK_PASSWORD':
    case 'WRONG_CURRENT_PASSWORD':
    case 'INVALID_RESET_LINK':
    case 'TWO_FACTOR_NOT_STARTED':
    case 'INVALID_TWO_FACTOR_CODE':
    case 'TWO_FACTOR_CODE_REQUIRED':
    case 'LOGIN_CHALLENGE_EXPIRED':
    case 'CANNOT_FOLLOW_SELF':
    case 'CANNOT_BLOCK_SELF':
    case 'CANNOT_MUTE_SELF':
    case 'CANNOT_REPORT_OWN_REVIEW':
    case 'CANNOT_MODERATE_SELF':
    case 'CANNOT_REPORT_OWN_COMMENT':
    case 'IMAGE_REQUIRED':
    case 'INVALID_UPLOAD':
    case 'INVALID_MEMBERS':
      return 400;
    case 'UNAUTHORIZED':
    case 'INVALID_CREDENTIALS':
    case 'ACCOUNT_GONE':
    case 'INVALID_TOKEN':
      return 401;
    case 'FORBIDDEN':
    case 'FOLLOW_LIST_HIDDEN':
    case 'FOLLOW_LIST_PRIVATE':
    case 'USER_BLOCKED':
    case 'NOT_REVIEW_AUTHOR':
    case 'NOT_PRODUCT_CREATOR':
    case 'NOT_COMMENT_AUTHOR':
    case 'NOT_LIST_OWNER':
    case 'SQUAD_ROLE_REQUIRED':
    case 'ADMINS_CANNOT_LEAVE':
    case 'BLOCKED_BY_ADMIN':
    case 'NOT_IN_CONVERSATION':
    case 'NOT_IN_SQUAD_CHAT':
    case 'NOT_MESSAGE_SENDER':
    case 'MODERATOR_ONLY':
    case 'ADMIN_ONLY':
    case 'ACCOUNT_SUSPENDED':
      return 403;
    case 'NOT_FOUND':
    case 'ACCOUNT_NOT_FOUND':
    case 'USER_NOT_FOUND':
    case 'NOT_FOLLOWING':
    case 'FOLLOW_REQUEST_NOT_FOUND':
    case 'NOT_A_FOLLOWER':
    case 'NOT_BLOCKED':
    case 'REVIEW_NOT_FOUND':
    case 'PRODUCT_NOT_FOUND':
    case 'COMMENT_NOT_FOUND':
    case 'MEDIA_NOT_FOUND':
    case 'LIST_NOT_FOUND':
    case 'SQUAD_NOT_FOUND':
    case 'MEMBER_NOT_FOUND':
    case 'JOIN_REQUEST_NOT_FOUND':
    case 'CONVERSATION_NOT_FOUND':
    case 'SQUAD_CHAT_NOT_FOUND':
    case 'MESSAGE_NOT_FOUND':
    case 'NOTIFICATION_NOT_FOUND':
    case 'FILTER_NOT_FOUND':
    case 'REPORT_NOT_FOUND':
    case 'MODERATION_TARGET_NOT_FOUND':
      return 404;
    case 'RECIPIENT_DELETED':
      return 410;
    case 'CONFLICT':
    case 'EMAIL_TAKEN':
    case 'USERNAME_UNAVAILABLE':
    case 'TWO_FACTOR_ALREADY_ON':
    case 'USERNAME_TAKEN':
    case 'ALREADY_FOLLOWING':
    case 'FOLLOW_CHANGED':
    case 'ALREADY_BLOCKED':
    case 'ALREADY_REVIEWED':
    case 'REVIEW_CHANGED':
    case 'ALREADY_REPORTED':
    case 'DEFAULT_LIST_FIXED':
    case 'ALREADY_MEMBER':
    case 'NOT_A_MEMBER':
    case 'ADMIN_NOT_REMOVABLE':
    case 'LAST_ADMIN':
    case 'JOIN_REQUEST_PENDING':
    case 'JOIN_REQUEST_DECIDED':
    case 'MESSAGE_DELETED':
    case 'TOO_MANY_FILTERS':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
    case 'FILE_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'UNSUPPORTED_IMAGE_TYPE':
      return 415;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL':
      return 500;
    case 'BAD_GATEWAY':
      return 502;
    case 'SERVICE_UNAVAILABLE':
      return 503;
    case 'GATEWAY_TIMEOUT':
      return 504;
    default:
      return unreachable(code);
  }
}

/** The generic code of a status, for errors raised without one (the framework, guards, the gateway). */
export function genericErrorCode(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    case 502:
      return 'BAD_GATEWAY';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    case 504:
      return 'GATEWAY_TIMEOUT';
    default:
      // Another 4xx (405, 406...) has no code of its own yet: the nearest generic one.
      return status >= 400 && status < 500 ? 'BAD_REQUEST' : 'INTERNAL';
  }
}

function unreachable(code: never): never {
  throw new Error(`Unknown error code ${String(code)}`);
}
