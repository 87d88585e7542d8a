import { CommonErrorCode, NotificationsErrorCode } from '@app/contracts';
import { CodedException } from '@app/platform';

/** An error of the notifications service: its code (libs/contracts errors), status and exact message. */
export class NotificationsException extends CodedException<NotificationsErrorCode | CommonErrorCode> {}
