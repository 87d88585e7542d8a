import { Logger } from '@nestjs/common';
import { AnyEventEnvelope, NotificationView } from '@app/contracts';
import { GatewayConfig } from '../config/gateway.config';
import { SessionCutoffs } from '../access/session-cutoffs';
import { EventRelay } from './event-relay';
import { RealtimeGateway } from './realtime.gateway';
import { RoomGuard } from './room-guard';
import { userRoom } from './rooms';

interface Push {
  rooms: string[];
  name: string;
  data: unknown;
}

/** The relay over a recording socket server whose connected members are `online`: what it would push, and what it asked the cut-offs. */
function relayWithRecorder(online = ['u1', 'u2']) {
  const pushes: Push[] = [];
  const raised: [string, number][] = [];
  const local = {
    to: (rooms: string | string[]) => ({ emit: (name: string, data: unknown) => pushes.push({ rooms: ([] as string[]).concat(rooms), name, data }) }),
    in: () => ({ fetchSockets: async () => [] }),
  };
  const rooms = new Map(online.map((id) => [userRoom(id), new Set([`socket-of-${id}`])]));
  const gateway = { server: { local, sockets: { adapter: { rooms } } } } as unknown as RealtimeGateway;
  const sessions = { raise: async (userId: string, version: number) => void raised.push([userId, version]) } as unknown as SessionCutoffs;
  const relay = new EventRelay({} as GatewayConfig, gateway, {} as RoomGuard, sessions);
  return { relay, pushes, raised };
}

const envelope = (type: string, payload: unknown): AnyEventEnvelope =>
  ({ id: `e-${Math.random()}`, type, version: 1, occurredAt: new Date().toISOString(), key: 'k', actorId: 'u1', payload }) as AnyEventEnvelope;

const card = { id: 'u1', display_name: 'Ayse', username: 'ayse', profile_image_url: null };
const message = { id: 'm1', conversation_id: 'c1', sender_id: 'u1', sender: card, content: 'hi', created_at: '2026-01-01T10:00:00.000Z' };
const sent = { messageId: 'm1', conversationId: 'c1', senderId: 'u1', memberIds: ['u1', 'u2'], message };
const notification = { id: 'n1', type: 'new_follower', message: 'Ayse followed you', is_read: false, created_at: '2026-01-01T10:00:00.000Z', related_user: card };

describe('event relay: payloads checked against the catalogue before any socket sees them (issue 31 §3)', () => {
  let errors: jest.SpyInstance;

  beforeEach(() => {
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  afterEach(() => errors.mockRestore());

  it('pushes a valid message and notification to their rooms', async () => {
    const { relay, pushes } = relayWithRecorder();
    await relay.relay(envelope('message.sent', sent));
    await relay.relay(envelope('notification.created', { notificationId: 'n1', recipientId: 'u2', push: true, notification }));
    expect(pushes.map((p) => [p.name, p.rooms])).toEqual([
      ['new-message', [userRoom('u1'), userRoom('u2')]],
      ['notification', [userRoom('u2')]],
    ]);
    expect(errors).not.toHaveBeenCalled();
  });

  it('makes no push for members with no socket on this gateway', async () => {
    const { relay, pushes } = relayWithRecorder(['u1']);
    await relay.relay(envelope('notification.created', { notificationId: 'n1', recipientId: 'u2', push: true, notification }));
    await relay.relay(envelope('message.sent', sent));
    expect(pushes.map((p) => [p.name, p.rooms])).toEqual([['new-message', [userRoom('u1'), userRoom('u2')]]]);
  });

  it('checks nothing of a push for members with no socket here, and still drops a bad one for a member who has one', async () => {
    const { relay, pushes } = relayWithRecorder(['u1']);
    const bad = { notificationId: 'n1', push: true, notification: { ...notification, message: undefined } };
    await relay.relay(envelope('notification.created', { ...bad, recipientId: 'u2' }));
    await relay.relay(envelope('message.sent', { ...sent, memberIds: ['u2', 'u3'] }));
    expect(errors).not.toHaveBeenCalled();
    await relay.relay(envelope('notification.created', { ...bad, recipientId: 'u1' }));
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^Dropped notification\.created v1 /));
    expect(pushes).toEqual([]);
  });

  it.each([
    ['a message without its sender card', 'message.sent', { ...sent, message: { ...message, sender: undefined } }],
    ['a message whose content is not text', 'message.sent', { ...sent, message: { ...message, content: { html: '<script>' } } }],
    ['member ids that are not strings', 'message.sent', { ...sent, memberIds: [{ $ne: null }] }],
    ['an edit with a date that is no date', 'message.edited', { messageId: 'm1', conversationId: 'c1', senderId: 'u1', memberIds: ['u2'], content: 'x', editedAt: 'soon' }],
    ['a notification without its text', 'notification.created', { notificationId: 'n1', recipientId: 'u2', push: true, notification: { ...notification, message: undefined } }],
    ['a read receipt with no reader', 'conversation.read', { conversationId: 'c1', readAt: '2026-01-01T10:00:00.000Z', memberIds: ['u1'], isGroup: false }],
  ])('drops and logs %s', async (_label, type, payload) => {
    const { relay, pushes } = relayWithRecorder();
    await relay.relay(envelope(type, payload));
    expect(pushes).toEqual([]);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^Dropped ${type.replace('.', '\\.')} v1 `)));
  });

  it("tells the member's tabs of a role change, and no one else (issue 31 §1)", async () => {
    const { relay, pushes } = relayWithRecorder();
    await relay.relay(envelope('moderation.role_changed', { userId: 'u2', role: 'moderator' }));
    await relay.relay(envelope('moderation.role_changed', { userId: 'u2', role: 'emperor' }));
    expect(pushes).toEqual([{ rooms: [userRoom('u2')], name: 'role-changed', data: { role: 'moderator' } }]);
  });

  it("tells both sides of a squad page of a join request, its decision and role changes, and the staff of their queue (issue 43 §4)", async () => {
    const { relay, pushes } = relayWithRecorder(['u1', 'u2', 'u3']);
    const squad = { squadId: 's1', squadName: 'Coffee' };
    await relay.relay(envelope('squad.join_requested', { ...squad, requestId: 'r1', userId: 'u1', message: null, managerIds: ['u2'] }));
    await relay.relay(envelope('squad.join_decided', { ...squad, requestId: 'r1', userId: 'u1', decision: 'approved', decidedBy: 'u2', managerIds: ['u2'] }));
    // a decision stored before it named the managers still reaches the requester
    await relay.relay(envelope('squad.join_decided', { ...squad, requestId: 'r0', userId: 'u1', decision: 'rejected', decidedBy: 'u2' }));
    await relay.relay(envelope('squad.member_joined', { ...squad, userId: 'u1', role: 'member', joined_at: '2026-01-01T10:00:00.000Z' }));
    await relay.relay(envelope('squad.member_role_changed', { ...squad, userId: 'u1', role: 'moderator', changedBy: 'u2', managerIds: ['u2', 'u1'] }));
    await relay.relay(envelope('squad.member_role_changed', { ...squad, userId: 'u1', role: 'owner', changedBy: 'u2', managerIds: ['u2'] }));
    await relay.relay(envelope('moderation.report_filed', { reportId: 'p1', reviewId: 'v1', commentId: null, reporterId: 'u1', staffIds: ['u3'] }));
    await relay.relay(envelope('moderation.report_dismissed', { reportId: 'p1', dismissedBy: 'u3', staffIds: ['u3', 'u2'] }));
    await relay.relay(envelope('moderation.content_hidden', { kind: 'review', contentId: 'v1', authorId: 'u1', reason: 'spam', staffIds: ['u3'] }));
    // a hide stored before hides named the staff is pushed to nobody
    await relay.relay(envelope('moderation.content_hidden', { kind: 'review', contentId: 'v1', authorId: 'u1', reason: 'spam' }));
    const changed = { name: 'squad-changed', data: { squadId: 's1' } };
    expect(pushes).toEqual([
      { rooms: [userRoom('u1'), userRoom('u2')], ...changed },
      { rooms: [userRoom('u1'), userRoom('u2')], ...changed },
      { rooms: [userRoom('u1')], ...changed },
      { rooms: [userRoom('u1')], ...changed },
      { rooms: [userRoom('u1'), userRoom('u2'), userRoom('u1')], ...changed },
      { rooms: [userRoom('u3')], name: 'moderation-queue', data: {} },
      { rooms: [userRoom('u3'), userRoom('u2')], name: 'moderation-queue', data: {} },
      { rooms: [userRoom('u3')], name: 'moderation-queue', data: {} },
    ]);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^Dropped squad\.member_role_changed v1 /));
  });

  it('applies no session cut-off from an invalid revocation', async () => {
    const { relay, raised } = relayWithRecorder();
    await relay.relay(envelope('auth.sessions_revoked', { userId: 'u2', version: '9' }));
    expect(raised).toEqual([]);
    await relay.relay(envelope('auth.sessions_revoked', { userId: 'u2', version: 9 }));
    expect(raised).toEqual([['u2', 9]]);
  });
});

/** What the relay emitted, room by room, through a socket.io server's `local.to(rooms).emit`. */
function recordingGateway(emitted: { rooms: string[]; event: string; payload: unknown }[]): RealtimeGateway {
  const local = { to: (rooms: string | string[]) => ({ emit: (event: string, payload: unknown) => emitted.push({ rooms: [rooms].flat(), event, payload }) }) };
  // Every member has a socket here.
  const rooms = { get: () => new Set(['a-socket']) };
  return { server: { local, sockets: { adapter: { rooms } } } } as unknown as RealtimeGateway;
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
