import { CommonErrorCode, SquadsErrorCode } from '@app/contracts';
import { CodedException } from '@app/platform';

/** An error of the squads service: its code (libs/contracts errors), status and exact message. */
export class SquadsException extends CodedException<SquadsErrorCode | CommonErrorCode> {}
