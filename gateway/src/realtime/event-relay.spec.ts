import { AnyEventEnvelope, NotificationView } from '@app/contracts';
import { GatewayConfig } from '../config/gateway.config';
import { SessionCutoffs } from '../access/session-cutoffs';
import { EventRelay } from './event-relay';
import { RealtimeGateway } from './realtime.gateway';
import { RoomGuard } from './room-guard';

/** What the relay emitted, room by room, through a socket.io server's `local.to(rooms).emit`. */
function recordingGateway(emitted: { rooms: string[]; event: string; payload: unknown }[]): RealtimeGateway {
  const local = { to: (rooms: string | string[]) => ({ emit: (event: string, payload: unknown) => emitted.push({ rooms: [rooms].flat(), event, payload }) }) };
  return { server: { local } } as unknown as RealtimeGateway;
}

function notificationCreated(id: string, notificationId: string): AnyEventEnvelope {
  const notification = { id: notificationId, type: 'review_liked', message: 'liked your review', is_read: false, created_at: '2026-01-01T00:00:00.000Z', related_user: null } as NotificationView;
  return {
    id,
    type: 'notification.created',
    version: 1,
    occurredAt: '2026-01-01T00:00:00.000Z',
    key: 'u1',
    actorId: 'u2',
    payload: { notificationId, recipientId: 'u1', push: true, notification },
  } as AnyEventEnvelope;
}

describe('EventRelay', () => {
  const emitted: { rooms: string[]; event: string; payload: unknown }[] = [];
  const relay = new EventRelay({} as GatewayConfig, recordingGateway(emitted), {} as RoomGuard, {} as SessionCutoffs);

  beforeEach(() => (emitted.length = 0));

  it('pushes an event published twice (its outbox row republished after a crash) once', async () => {
    await relay.relay(notificationCreated('e1', 'n1'));
    await relay.relay(notificationCreated('e1', 'n1'));
    expect(emitted.map((e) => [e.event, (e.payload as NotificationView).id])).toEqual([['notification', 'n1']]);
  });

  it('pushes distinct events each time, the same notification refreshed included', async () => {
    await relay.relay(notificationCreated('e2', 'n2'));
    await relay.relay(notificationCreated('e3', 'n2'));
    expect(emitted.map((e) => e.rooms)).toHaveLength(2);
  });
});
