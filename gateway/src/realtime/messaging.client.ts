import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, request } from 'node:http';
import { MessageView } from '@app/contracts';
import { GATEWAY_SERVICE_URLS } from '../gateway.tokens';
import { ServiceUrls } from '../proxy/service-proxy';

const MEMBER_TTL_MS = 10_000;
/** Short, so a member who just joined (e.g. a squad) is let in soon. */
const NON_MEMBER_TTL_MS = 2_000;
const CACHE_MAX = 10_000;
const TIMEOUT_MS = 5_000;

export class MessagingUnavailableError extends Error {
  constructor() {
    super('Messaging is unavailable, please try again');
  }
}

export type SendResult = { ok: true; message: MessageView } | { ok: false; message: string; code?: string };

interface Envelope {
  success?: boolean;
  data?: unknown;
  message?: string;
  code?: string;
}

/** The gateway's calls to the messaging service, made with the member's own token. */
@Injectable()
export class MessagingClient implements OnApplicationShutdown {
  /** `userId|conversationId` -> the conversation's member ids, or null for "not a member". */
  private readonly membership = new Map<string, { members: string[] | null; until: number }>();
  // Plain http over kept-alive sockets: fetch (undici, web streams, an AbortSignal per call)
  // cost about three times as much CPU per message send. Idle sockets close before the
  // services' 65 s keep-alive time-out, as the proxy's do.
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 });

  constructor(@Inject(GATEWAY_SERVICE_URLS) private readonly urls: ServiceUrls) {}

  /**
   * The conversation's member ids when `userId` is one of them, null otherwise; asked from
   * GET /messages/conversations/{id}/members and cached briefly.
   */
  async membersOf(conversationId: string, userId: string, token: string): Promise<string[] | null> {
    const key = `${userId}|${conversationId}`;
    const cached = this.membership.get(key);
    if (cached && cached.until > Date.now()) return cached.members;
    const res = await this.call('GET', `/api/messages/conversations/${encodeURIComponent(conversationId)}/members`, token);
    if (res.status !== 200 && res.status !== 403 && res.status !== 404) throw new MessagingUnavailableError();
    const members = res.status === 200 && Array.isArray(res.body.data) ? (res.body.data as { id: string }[]).map((m) => m.id) : null;
    this.remember(key, members);
    return members;
  }

  /** Drops what is cached about `userId`'s conversations: their membership just changed. */
  forget(userId: string): void {
    for (const key of this.membership.keys()) if (key.startsWith(`${userId}|`)) this.membership.delete(key);
  }

  /** Persists a message; delivery to sockets follows from `message.sent`. */
  async send(conversationId: string, body: { content: string; attachments?: unknown }, token: string): Promise<SendResult> {
    const res = await this.call('POST', `/api/messages/conversations/${encodeURIComponent(conversationId)}/messages`, token, body);
    if (res.status === 201 || res.status === 200) {
      return { ok: true, message: res.body.data as MessageView };
    }
    if (res.status >= 500) throw new MessagingUnavailableError();
    return { ok: false, message: res.body.message ?? 'Failed to send message', ...(res.body.code && { code: res.body.code }) };
  }

  private remember(key: string, members: string[] | null): void {
    if (this.membership.size >= CACHE_MAX) {
      const oldest = this.membership.keys().next().value;
      if (oldest !== undefined) this.membership.delete(oldest);
    }
    this.membership.set(key, { members, until: Date.now() + (members ? MEMBER_TTL_MS : NON_MEMBER_TTL_MS) });
  }

  private call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Envelope }> {
    const base = this.urls.messaging;
    if (!base) return Promise.reject(new MessagingUnavailableError());
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        `${base}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            Authorization: `Bearer ${token}`,
            ...(payload !== undefined && { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', () => reject(new MessagingUnavailableError()));
          res.on('end', () => {
            let json: Envelope = {};
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Envelope;
            } catch {
              // Not JSON: the status alone decides.
            }
            resolve({ status: res.statusCode ?? 502, body: json });
          });
        },
      );
      // A time-out is measured from the request's start, like the AbortSignal before it.
      const timer = setTimeout(() => req.destroy(new Error('timeout')), TIMEOUT_MS);
      req.on('close', () => clearTimeout(timer));
      req.on('error', () => reject(new MessagingUnavailableError()));
      req.end(payload);
    });
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }
}
