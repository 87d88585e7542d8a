import { Controller, Get, Inject } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser, ExportPart, exportParts, MemberExportModule } from '@app/platform';
import { STORE, Store } from '@app/store';
import { notificationsCollection } from '../notifications/notification.collection';

/** The notifications the member received. */
const PARTS: ExportPart[] = [
  { key: 'notifications', collection: notificationsCollection, filter: (id) => ({ recipient_id: id }), omit: ['dedupe_key', 'event_id', 'squad_name_at'] },
];

@Controller('notifications/me')
export class NotificationsExportController {
  constructor(@Inject(STORE) private readonly store: Store) {}

  @Get('export')
  export(@CurrentUser() member: AuthenticatedUser) {
    return exportParts(this.store, PARTS, member.id);
  }
}

export const NotificationsExport = MemberExportModule.withController(NotificationsExportController);
