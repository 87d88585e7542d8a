import { api, listOf } from '../../core/api';
import type { NotificationView } from '@app/contracts';
import type { AppDispatch, RootState } from '../../core/store';

export interface NotificationPage {
  items: NotificationView[];
  unread_count: number | null;
  total: number;
}

export const notificationsApi = api.injectEndpoints({
  endpoints: (b) => ({
    notifications: b.query<NotificationPage, { page?: number; limit?: number; unread_only?: boolean }>({
      query: ({ page = 1, limit = 20, unread_only = false }) => ({ url: '/notifications', params: { page, limit, unread_only } }),
      transformResponse: (r: unknown) => {
        const { items, meta } = listOf<NotificationView>(r);
        const unread = (meta as { unread_count?: number }).unread_count;
        return { items, unread_count: typeof unread === 'number' ? unread : null, total: meta.total };
      },
      providesTags: ['Notification'],
    }),
    unreadCount: b.query<number, void>({
      query: () => '/notifications/unread-count',
      transformResponse: (r: { data?: { unread_count?: number } }) => r.data?.unread_count ?? 0,
      providesTags: ['Notification'],
    }),
    markRead: b.mutation<void, string>({
      query: (id) => ({ url: `/notifications/${id}/read`, method: 'PUT' }),
      async onQueryStarted(id, { dispatch, queryFulfilled, getState }) {
        // optimistic: the item turns read and the count drops by one, never below 0 (part 1 §4)
        const patches = notificationsApi.util
          .selectInvalidatedBy(getState(), ['Notification'])
          .map(({ endpointName, originalArgs }) => {
            if (endpointName === 'notifications')
              return dispatch(
                notificationsApi.util.updateQueryData('notifications', originalArgs, (d) => {
                  const n = d.items.find((x) => x.id === id);
                  if (n && !n.is_read) {
                    n.is_read = true;
                    if (d.unread_count !== null) d.unread_count = Math.max(0, d.unread_count - 1);
                  }
                }),
              );
            if (endpointName === 'unreadCount')
              return dispatch(notificationsApi.util.updateQueryData('unreadCount', undefined, (d) => Math.max(0, d - 1)));
            return null;
          });
        try {
          await queryFulfilled;
        } catch {
          console.error('Failed to mark notification as read');
          patches.forEach((p) => p?.undo());
        }
      },
      invalidatesTags: ['Notification'],
    }),
    markAllRead: b.mutation<void, void>({
      query: () => ({ url: '/notifications/mark-all-read', method: 'PUT' }),
      async onQueryStarted(_a, { dispatch, queryFulfilled }) {
        const p = dispatch(notificationsApi.util.updateQueryData('unreadCount', undefined, () => 0));
        try {
          await queryFulfilled;
        } catch {
          console.error('Failed to mark all notifications as read');
          p.undo();
        }
      },
      invalidatesTags: ['Notification'],
    }),
    deleteNotification: b.mutation<void, string>({
      query: (id) => ({ url: `/notifications/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Notification'],
    }),
  }),
});

export const { useNotificationsQuery, useUnreadCountQuery, useMarkReadMutation, useMarkAllReadMutation, useDeleteNotificationMutation } =
  notificationsApi;

/** A pushed notification goes first in the cached first pages and raises the unread count by one (part 1 §4). */
export function applyPushedNotification(n: NotificationView) {
  return (dispatch: AppDispatch, getState: () => RootState) => {
    for (const { endpointName, originalArgs } of notificationsApi.util.selectInvalidatedBy(getState(), ['Notification'])) {
      if (endpointName === 'unreadCount') dispatch(notificationsApi.util.updateQueryData('unreadCount', undefined, (c) => c + 1));
      if (endpointName === 'notifications' && ((originalArgs as { page?: number }).page ?? 1) === 1)
        dispatch(
          notificationsApi.util.updateQueryData('notifications', originalArgs, (d) => {
            if (d.items.some((x) => x.id === n.id)) return;
            d.items.unshift(n);
            d.total += 1;
            if (d.unread_count !== null && !n.is_read) d.unread_count += 1;
          }),
        );
    }
  };
}
