import { CommonErrorCode, MessagingErrorCode } from '@app/contracts';
import { CodedException } from '@app/platform';

/** An error of the messaging service: its code (libs/contracts errors), status and exact message. */
export class MessagingException extends CodedException<MessagingErrorCode | CommonErrorCode> {}
