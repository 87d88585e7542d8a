import { Inject, Injectable } from '@nestjs/common';
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

export type SendResult = { ok: true; message: MessageView } | { ok: false; message: string };

interface Envelope {
  success?: boolean;
  data?: unknown;
  message?: string;
}

/** The gateway's calls to the messaging service, made with the member's own token. */
@Injectable()
export class MessagingClient {
  private readonly membership = new Map<string, { member: boolean; until: number }>();

  constructor(@Inject(GATEWAY_SERVICE_URLS) private readonly urls: ServiceUrls) {}

  /** Membership, asked from GET /messages/conversations/{id}/members and cached briefly. */
  async isMember(conversationId: string, userId: string, token: string): Promise<boolean> {
    const key = `${userId}|${conversationId}`;
    const cached = this.membership.get(key);
    if (cached && cached.until > Date.now()) return cached.member;
    const res = await this.call('GET', `/api/messages/conversations/${encodeURIComponent(conversationId)}/members`, token);
    if (res.status !== 200 && res.status !== 403 && res.status !== 404) throw new MessagingUnavailableError();
    const member = res.status === 200;
    this.remember(key, member);
    return member;
  }

  /** Persists a message; delivery to sockets follows from `message.sent`. */
  async send(conversationId: string, content: string, userId: string, token: string): Promise<SendResult> {
    const res = await this.call('POST', `/api/messages/conversations/${encodeURIComponent(conversationId)}/messages`, token, {
      content,
    });
    if (res.status === 201 || res.status === 200) {
      this.remember(`${userId}|${conversationId}`, true);
      return { ok: true, message: res.body.data as MessageView };
    }
    if (res.status >= 500) throw new MessagingUnavailableError();
    return { ok: false, message: res.body.message ?? 'Failed to send message' };
  }

  private remember(key: string, member: boolean): void {
    if (this.membership.size >= CACHE_MAX) {
      const oldest = this.membership.keys().next().value;
      if (oldest !== undefined) this.membership.delete(oldest);
    }
    this.membership.set(key, { member, until: Date.now() + (member ? MEMBER_TTL_MS : NON_MEMBER_TTL_MS) });
  }

  private async call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Envelope }> {
    const base = this.urls.messaging;
    if (!base) throw new MessagingUnavailableError();
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const json = (await res.json().catch(() => ({}))) as Envelope;
      return { status: res.status, body: json };
    } catch {
      throw new MessagingUnavailableError();
    }
  }
}
