import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The member a verified JWT names. */
export interface AuthenticatedUser {
  id: string;
  username: string;
}

export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthenticatedUser => ctx.switchToHttp().getRequest().user,
);
