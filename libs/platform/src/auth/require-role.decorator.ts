import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { isModerator } from '@app/contracts';
import { CodedException } from '../http/coded.exception';
import { AuthenticatedUser } from './current-user.decorator';

const REQUIRED_ROLE = 'requiredRole';
type StaffRole = 'moderator' | 'admin';

/**
 * Checks the site role as a guard, so it runs before the validation pipe: a member gets a 403
 * whatever the body, and never learns a staff route's shape from a 400 (issue 31 §7).
 */
@Injectable()
export class RoleGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.get<StaffRole | undefined>(REQUIRED_ROLE, context.getHandler());
    const user = context.switchToHttp().getRequest<{ user?: AuthenticatedUser }>().user;
    if (required === 'admin' && user?.role !== 'admin') throw new CodedException('ADMIN_ONLY', 'Only admins can do this');
    if (required === 'moderator' && !isModerator(user?.role)) throw new CodedException('MODERATOR_ONLY', 'Only moderators can do this');
    return true;
  }
}

/** The route answers only moderators (admins included) or only admins; 403 otherwise, before the body is read. */
export const RequireRole = (role: StaffRole) => applyDecorators(SetMetadata(REQUIRED_ROLE, role), UseGuards(RoleGuard));
