import { CommonErrorCode, AuthErrorCode } from '@app/contracts';
import { CodedException } from '@app/platform';

/** An error of the auth service: its code (libs/contracts errors), status and exact message. */
export class AuthException extends CodedException<AuthErrorCode | CommonErrorCode> {}
