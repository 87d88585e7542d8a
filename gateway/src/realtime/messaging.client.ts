import { Inject, Injectable } from '@nestjs/common';
import { MessageView } from '@app/contracts';
import { exchange, SERVICE_LINK, ServiceLink } from '../link/service-link';

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

/**
 * The gateway's calls to the messaging service, made with the member's own token, over the
 * proxy's link: in the embedded profile the service's router in this process, across processes
 * undici's dispatcher (no fetch: web streams and an AbortSignal per call cost about three times
 * as much CPU per message send).
 */
@Injectable()
export class MessagingClient {
  /** `userId|conversationId` -> the conversation's member ids, or null for "not a member". */
  private readonly membership = new Map<string, { members: string[] | null; until: number }>();

  constructor(@Inject(SERVICE_LINK) private readonly link: ServiceLink) {}

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

  private async call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Envelope }> {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (payload) headers['content-type'] = 'application/json';
    let reply;
    try {
      reply = await exchange(this.link, 'messaging', { method, path, headers, body: payload, timeoutMs: TIMEOUT_MS });
    } catch {
      throw new MessagingUnavailableError();
    }
    let json: Envelope = {};
    try {
      json = JSON.parse(reply.body.toString('utf8')) as Envelope;
    } catch {
      // Not JSON: the status alone decides.
    }
    return { status: reply.status, body: json };
  }
}
