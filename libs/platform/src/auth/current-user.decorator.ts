import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The member a verified JWT names. */
export interface AuthenticatedUser {
  id: string;
  username: string;
  /** The token's session version (`ver`, 0 when absent): the auth service compares it with the member's. */
  sessionVersion?: number;
}

export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthenticatedUser => ctx.switchToHttp().getRequest().user,
);
