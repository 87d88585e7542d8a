import { Controller, Get, Inject } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser, ExportPart, exportParts, MemberExportModule } from '@app/platform';
import { STORE, Store } from '@app/store';
import { blocksCollection } from '../blocks/block.collection';
import { followsCollection } from '../follows/follow.collection';
import { mutesCollection } from '../mutes/mute.collection';
import { profilesCollection, profileSearchKey } from '../profiles/profile.collection';

/**
 * The member's profile and settings, follows both ways and requests, and whom they blocked and
 * muted (never who blocked or muted them: a mute is silent).
 */
const PARTS: ExportPart[] = [
  { key: 'profile', collection: profilesCollection, filter: (id) => ({ _id: id }), omit: [profileSearchKey.field] },
  { key: 'follows', collection: followsCollection, filter: (id) => ({ $or: [{ follower_id: id }, { followee_id: id }] }) },
  { key: 'blocks', collection: blocksCollection, filter: (id) => ({ blocker_id: id }) },
  { key: 'mutes', collection: mutesCollection, filter: (id) => ({ muter_id: id }) },
];

@Controller('follows/me')
export class SocialExportController {
  constructor(@Inject(STORE) private readonly store: Store) {}

  @Get('export')
  export(@CurrentUser() member: AuthenticatedUser) {
    return exportParts(this.store, PARTS, member.id);
  }
}

export const SocialExport = MemberExportModule.withController(SocialExportController);
