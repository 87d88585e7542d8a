import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Role } from '@app/contracts';

/** The member a verified JWT names. */
export interface AuthenticatedUser {
  id: string;
  username: string;
  /** The token's session version (`ver`, 0 when absent): the auth service compares it with the member's. */
  sessionVersion?: number;
  /** The token's site role (issue 22 §3); absent in tokens from before roles, which means member. */
  role?: Role;
}

export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthenticatedUser => ctx.switchToHttp().getRequest().user,
);
