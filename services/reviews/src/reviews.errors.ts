import { CommonErrorCode, ReviewsErrorCode } from '@app/contracts';
import { CodedException } from '@app/platform';

/** An error of the reviews service: its code (libs/contracts errors), status and exact message. */
export class ReviewsException extends CodedException<ReviewsErrorCode | CommonErrorCode> {}
