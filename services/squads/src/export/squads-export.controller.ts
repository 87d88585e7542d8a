import { Controller, Get, Inject } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser, ExportPart, exportParts, MemberExportModule } from '@app/platform';
import { STORE, Store } from '@app/store';
import { joinRequestsCollection } from '../join-requests/join-request.collection';
import { membersCollection } from '../members/member.collection';
import { squadsCollection, squadSearchKey } from '../squads/squad.collection';

/** Squads the member created, their memberships with roles, and their join requests. */
const PARTS: ExportPart[] = [
  { key: 'squads_created', collection: squadsCollection, filter: (id) => ({ creator_id: id }), omit: [squadSearchKey.field] },
  { key: 'memberships', collection: membersCollection, filter: (id) => ({ user_id: id }) },
  { key: 'join_requests', collection: joinRequestsCollection, filter: (id) => ({ user_id: id }), omit: ['pending_key'] },
];

@Controller('squads/me')
export class SquadsExportController {
  constructor(@Inject(STORE) private readonly store: Store) {}

  @Get('export')
  export(@CurrentUser() member: AuthenticatedUser) {
    return exportParts(this.store, PARTS, member.id);
  }
}

export const SquadsExport = MemberExportModule.withController(SquadsExportController);
