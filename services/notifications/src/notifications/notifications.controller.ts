import { Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { NotificationListQueryDto, pageWindow, UnreadCountView } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { NotificationsService } from './notifications.service';

/** /api/notifications. The fixed paths come before the `:id` ones so no id route captures them. */
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  async list(@CurrentUser() user: AuthenticatedUser, @Query() query: NotificationListQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total, unread } = await this.notifications.list(user.id, skip, limit, query.unread_only);
    return Reply.list(items, total, page, limit, { unread_count: unread });
  }

  @Get('unread-count')
  async unreadCount(@CurrentUser() user: AuthenticatedUser): Promise<UnreadCountView> {
    return { unread_count: await this.notifications.unreadCount(user.id) };
  }

  @Put('mark-all-read')
  async markAllRead(@CurrentUser() user: AuthenticatedUser) {
    const marked = await this.notifications.markAllRead(user.id);
    return Reply.message('All notifications marked as read', { marked, unread_count: 0 });
  }

  @Put(':id/read')
  async markRead(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return Reply.message('Notification marked as read', await this.notifications.markRead(user.id, id));
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.notifications.remove(user.id, id);
    return Reply.message('Notification deleted', null);
  }
}
