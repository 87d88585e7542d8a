import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Cache, createCache } from '@app/store';
import { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG, GATEWAY_SERVICE_URLS } from '../gateway.tokens';
import { undici } from '../link/undici-on-demand';
import { ServiceUrls } from '../proxy/service-proxy';

/** A member's cut-off is re-read from auth at most this often when no event refreshed it. */
const CUTOFF_TTL_SECONDS = 3600;
const AUTH_TIMEOUT_MS = 5_000;

/**
 * Each member's session version (issue 17 §6): tokens whose `ver` claim is lower were revoked
 * by a logout or a password change. Kept in the cache port, so with REDIS_URL every gateway
 * replica reads the same cut-off (in memory in the embedded profile, one gateway). Learned
 * from `auth.sessions_revoked`, from the gateway's own successful logout or password change
 * (at once, before the member sees the reply), and from auth when a member is not known yet.
 */
@Injectable()
export class SessionCutoffs implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SessionCutoffs.name);
  private readonly cache: Cache;
  private readonly authUrl?: string;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig, @Inject(GATEWAY_SERVICE_URLS) urls: ServiceUrls) {
    this.cache = createCache({ redisUrl: config.REDIS_URL, keyPrefix: 'gateway:' });
    this.authUrl = urls.auth;
  }

  onModuleInit(): Promise<void> {
    return this.cache.connect();
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.close();
  }

  /** Whether a token of `userId` carrying session version `ver` still stands. */
  async isCurrent(userId: string, ver: number, token: string): Promise<boolean> {
    const known = await this.cache.get(key(userId)).catch(() => null);
    if (known !== null) return ver >= Number(known);
    return ver >= (await this.askAuth(userId, ver, token));
  }

  /** Versions only grow: an older or repeated announcement changes nothing. */
  async raise(userId: string, version: number): Promise<void> {
    const known = await this.cache.get(key(userId));
    if (known === null || version > Number(known)) await this.cache.set(key(userId), String(version), CUTOFF_TTL_SECONDS);
  }

  /**
   * The member's version from GET /api/auth/session, asked with their own token (auth answers
   * 401 for a revoked one: the cut-off is then above `ver`). When auth cannot answer the token
   * is let through uncached: signature and expiry were checked, and auth down must not sign
   * every member out.
   */
  private async askAuth(userId: string, ver: number, token: string): Promise<number> {
    if (!this.authUrl) return 0;
    try {
      const res = await undici().request(`${this.authUrl}/api/auth/session`, {
        headers: { authorization: `Bearer ${token}` },
        headersTimeout: AUTH_TIMEOUT_MS,
        bodyTimeout: AUTH_TIMEOUT_MS,
      });
      const body = (await res.body.json().catch(() => ({}))) as { data?: { session_version?: unknown } };
      if (res.statusCode === 401) return ver + 1;
      const version = body.data?.session_version;
      if (res.statusCode !== 200 || typeof version !== 'number') return 0;
      await this.raise(userId, version);
      return version;
    } catch (err) {
      this.logger.warn(`session check skipped, auth unreachable: ${(err as Error).message}`);
      return 0;
    }
  }
}

const key = (userId: string) => `session:${userId}`;
