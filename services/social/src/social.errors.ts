import { CommonErrorCode, SocialErrorCode } from '@app/contracts';
import { CodedException } from '@app/platform';

/** An error of the social service: its code (libs/contracts errors), status and exact message. */
export class SocialException extends CodedException<SocialErrorCode | CommonErrorCode> {}
