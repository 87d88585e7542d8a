import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SquadRole } from '@app/contracts';
import { AuthenticatedUser } from '@app/platform';
import { SquadAccess } from './squad-access.service';

const REQUIRED_SQUAD_ROLE = 'requiredSquadRole';

interface Requirement {
  roles: readonly SquadRole[];
  refusal: string;
}

/**
 * The squad role check as a guard, so it runs before the validation pipe: a plain member gets
 * the 403 (404 for no such squad) whatever the body, never a 400 that shows the route's shape
 * (issue 31 §7). The services keep their own check, which also loads the squad they work on.
 */
@Injectable()
export class SquadRoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: SquadAccess,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.get<Requirement | undefined>(REQUIRED_SQUAD_ROLE, context.getHandler());
    const req = context.switchToHttp().getRequest<{ user?: AuthenticatedUser; params: Record<string, unknown> }>();
    const squadId = req.params.id;
    // A malformed id is the pipe's to refuse; it names no squad to check a role in.
    if (!requirement || !req.user || typeof squadId !== 'string' || squadId.length > 64) return true;
    await this.access.squadFor(squadId, req.user.id, requirement.roles, requirement.refusal);
    return true;
  }
}

/** The route (under `squads/:id`) answers only members holding one of `roles` in that squad. */
export const RequireSquadRole = (roles: readonly SquadRole[], refusal: string) =>
  applyDecorators(SetMetadata(REQUIRED_SQUAD_ROLE, { roles, refusal }), UseGuards(SquadRoleGuard));
