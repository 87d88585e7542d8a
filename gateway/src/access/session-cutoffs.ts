import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Subscription } from '@app/bus';
import { Cache, createCache } from '@app/store';
import { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG, GATEWAY_SERVICE_URLS } from '../gateway.tokens';
import { undici } from '../link/undici-on-demand';
import { ServiceUrls } from '../proxy/service-proxy';

/** A member's cut-off is asked from auth again after this long without an event confirming it. */
const CUTOFF_TTL_MS = 3_600_000;
const AUTH_TIMEOUT_MS = 5_000;
/** Members held at most; past it the one learnt longest ago is asked from auth again when next seen. */
const MAX_MEMBERS = 200_000;

interface Known {
  version: number;
  until: number;
}

/**
 * Each member's session version (issue 17 §6): tokens whose `ver` claim is lower were revoked
 * by a logout, a password change, a suspension or a deletion. Held in this gateway's memory and
 * read on every request without a round trip (issue 44): learnt from `auth.sessions_revoked`
 * (auth waits until every gateway's relay has handled it before it answers, `inForce`), from this
 * gateway's own successful logout or password change (before the member sees the reply), and from
 * auth (`GET /api/auth/session`) for a member not known yet or not confirmed for an hour.
 *
 * The memory is trusted only while the relay's subscription is in step with the bus (connected,
 * caught up, not stalled): otherwise every check asks auth, and a gap (the bus lost its data)
 * forgets every member. On Kafka, which has no in-force wait, the replicas share the cut-offs in
 * the cache port instead (Redis with REDIS_URL), read per request.
 */
@Injectable()
export class SessionCutoffs implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SessionCutoffs.name);
  private readonly known = new Map<string, Known>();
  /** One auth call per token at a time: a page's parallel requests share it. */
  private readonly asking = new Map<string, Promise<number | undefined>>();
  private readonly shared?: Cache;
  private readonly authUrl?: string;
  private feed?: Subscription;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig, @Inject(GATEWAY_SERVICE_URLS) urls: ServiceUrls) {
    if (config.BUS === 'kafka') this.shared = createCache({ redisUrl: config.REDIS_URL, keyPrefix: 'gateway:' });
    this.authUrl = urls.auth;
  }

  async onModuleInit(): Promise<void> {
    await this.shared?.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.shared?.close();
  }

  /** The subscription that brings `auth.sessions_revoked` (the event relay's). */
  follow(subscription: Subscription): void {
    this.feed = subscription;
  }

  /** Events may have been lost on the way here: every member is asked from auth again. */
  forgetAll(): void {
    this.known.clear();
  }

  /** Whether a token of `userId` carrying session version `ver` still stands. */
  async isCurrent(userId: string, ver: number, token: string): Promise<boolean> {
    const cutoff = this.shared ? await this.sharedCutoff(userId) : this.trustedCutoff(userId);
    if (cutoff !== undefined) return ver >= cutoff;
    const asked = await this.ask(userId, ver, token);
    // Auth cannot answer: the last version known, if any, still holds; else signature and expiry
    // were checked, and auth down must not sign every member out.
    return ver >= (asked ?? this.known.get(userId)?.version ?? 0);
  }

  /** Versions only grow: an older or repeated announcement changes nothing. */
  async raise(userId: string, version: number): Promise<void> {
    if (!this.shared) return this.remember(userId, version);
    const known = await this.shared.get(key(userId));
    if (known === null || version > Number(known)) await this.shared.set(key(userId), String(version), CUTOFF_TTL_MS / 1000);
  }

  private trustedCutoff(userId: string): number | undefined {
    const known = this.known.get(userId);
    if (!known || known.until <= Date.now()) return undefined;
    // Out of step, an announcement may be on its way: auth says.
    if (this.feed?.inStep && !this.feed.inStep()) return undefined;
    return known.version;
  }

  private async sharedCutoff(userId: string): Promise<number | undefined> {
    const known = await this.shared?.get(key(userId)).catch(() => null);
    return known === null || known === undefined ? undefined : Number(known);
  }

  private remember(userId: string, version: number): void {
    const highest = Math.max(version, this.known.get(userId)?.version ?? version);
    this.known.delete(userId);
    this.known.set(userId, { version: highest, until: Date.now() + CUTOFF_TTL_MS });
    if (this.known.size > MAX_MEMBERS) this.known.delete(this.known.keys().next().value as string);
  }

  private ask(userId: string, ver: number, token: string): Promise<number | undefined> {
    let asked = this.asking.get(token);
    if (!asked) {
      asked = this.askAuth(userId, ver, token).finally(() => this.asking.delete(token));
      this.asking.set(token, asked);
    }
    return asked;
  }

  /**
   * The member's version from GET /api/auth/session, asked with their own token (auth answers
   * 401 for a revoked one: the cut-off is then above `ver`); undefined when auth cannot answer.
   */
  private async askAuth(userId: string, ver: number, token: string): Promise<number | undefined> {
    if (!this.authUrl) return undefined;
    try {
      const res = await undici().request(`${this.authUrl}/api/auth/session`, {
        headers: { authorization: `Bearer ${token}` },
        headersTimeout: AUTH_TIMEOUT_MS,
        bodyTimeout: AUTH_TIMEOUT_MS,
      });
      const body = (await res.body.json().catch(() => ({}))) as { data?: { session_version?: unknown } };
      if (res.statusCode === 401) return ver + 1;
      const version = body.data?.session_version;
      if (res.statusCode !== 200 || typeof version !== 'number') return undefined;
      await this.raise(userId, version);
      return version;
    } catch (err) {
      this.logger.warn(`session check skipped, auth unreachable: ${(err as Error).message}`);
      return undefined;
    }
  }
}

const key = (userId: string) => `session:${userId}`;
