// Chat over socket.io, spoken by hand over k6's WebSocket: engine.io v4 frames
// (`0` open, `2`/`3` ping/pong, `4` message) carrying socket.io packets
// (`0` connect, `2` event, `3` ack, `4` connect error). Each VU is one member of a seeded
// conversation; it sends a message every second and measures until its own copy of
// `new-message` comes back (the server emits to every member's room, the sender's too).
import { check, fail } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { Options } from 'k6/options';
import ws from 'k6/ws';
import { BASE_THRESHOLDS, seed, SeedData, WS_URL } from './lib/setup.ts';

const sendToReceive = new Trend('chat_send_to_receive', true);
const acksFailed = new Counter('chat_acks_failed');
const SESSION_MS = Number(__ENV.SESSION_SECONDS ?? 30) * 1000;

export const options: Options = {
  scenarios: {
    chat: { executor: 'constant-vus', vus: Number(__ENV.VUS ?? 20), duration: __ENV.DURATION ?? '1m' },
  },
  thresholds: {
    ...BASE_THRESHOLDS,
    chat_send_to_receive: ['p(95)<50'],
    chat_acks_failed: ['count<1'],
    ws_connecting: ['p(95)<500'],
  },
};

export function setup(): SeedData {
  const data = seed();
  if (data.conversations.length === 0) fail('setup made no conversations (SEED_USERS must be at least 2)');
  return data;
}

/** The socket.io event name and payload of a `42[...]` frame. */
function eventOf(frame: string): [string, { content?: string }] | undefined {
  const match = /^42(?:\d+)?(\[.*\])$/s.exec(frame);
  return match ? (JSON.parse(match[1]) as [string, { content?: string }]) : undefined;
}

export default function chat(data: SeedData): void {
  const conversation = data.conversations[(__VU - 1) % data.conversations.length];
  const member = data.users[conversation.members[__VU % 2]];
  const sentAt = new Map<string, number>();
  let ackId = 0;
  let sent = 0;

  const res = ws.connect(`${WS_URL}/socket.io/?EIO=4&transport=websocket`, null, (socket) => {
    const sendOne = () => {
      const content = `k6 ${__VU}-${__ITER}-${sent++}`;
      sentAt.set(content, Date.now());
      socket.send(`42${ackId++}${JSON.stringify(['send-message', { conversationId: conversation.id, content }])}`);
    };
    socket.on('message', (frame: string) => {
      if (frame.startsWith('0')) {
        socket.send(`40${JSON.stringify({ token: member.token })}`); // socket.io CONNECT with auth
      } else if (frame === '2') {
        socket.send('3');
      } else if (frame.startsWith('40')) {
        check(frame, { 'socket.io connected': () => true });
        socket.setInterval(sendOne, 1000);
      } else if (frame.startsWith('44')) {
        check(frame, { 'socket.io connected': () => false });
        socket.close();
      } else if (frame.startsWith('43')) {
        const ack = JSON.parse(frame.replace(/^43\d+/, '')) as [{ success: boolean }];
        if (!ack[0]?.success) acksFailed.add(1);
      } else {
        const event = eventOf(frame);
        const started = event && event[0] === 'new-message' ? sentAt.get(event[1].content ?? '') : undefined;
        if (started !== undefined) {
          sendToReceive.add(Date.now() - started);
          sentAt.delete(event?.[1].content ?? '');
        }
      }
    });
    socket.setTimeout(() => socket.close(), SESSION_MS);
  });
  check(res, { 'websocket upgraded': (r) => r !== null && r.status === 101 });
  check(sentAt, { 'every message came back': (m) => m.size <= 1 }); // the last one may be in flight at close
}
