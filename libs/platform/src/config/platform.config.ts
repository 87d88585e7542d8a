import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import type { StoreSettings } from '@app/store';

/** An http(s) origin: scheme, host and an optional port; a trailing slash is tolerated. */
const ORIGIN = /^https?:\/\/[^/?#\s@]+\/?$/;

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

/**
 * Settings every service shares, read from the environment and validated at boot
 * (a missing or malformed variable stops the process with a readable message).
 */
export class PlatformConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsIn(['sqlite', 'postgres', 'mongo'])
  STORE: 'sqlite' | 'postgres' | 'mongo' = 'sqlite';

  /** Data root: one SQLite file per service under it, media and the JWT secret; ':memory:' keeps data in memory (tests). */
  @IsString()
  DATA_DIR = '.data';

  @IsOptional()
  @IsString()
  MONGO_URL?: string;

  /** postgres://user:password@host:5432/database (STORE=postgres); each service keeps its tables in its own schema. */
  @IsOptional()
  @IsString()
  POSTGRES_URL?: string;

  /** Connections each process keeps open to PostgreSQL at most. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  POSTGRES_POOL_MAX = 10;

  /** How long opening a connection may take before the operation (or the boot) fails. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  POSTGRES_CONNECT_TIMEOUT_MS = 5000;

  /** An idle pooled connection is closed after this long. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  POSTGRES_IDLE_TIMEOUT_MS = 30_000;

  /** A statement without an answer by then fails (a server cut off never hangs a request). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  POSTGRES_QUERY_TIMEOUT_MS = 30_000;

  @IsIn(['memory', 'redis', 'kafka'])
  BUS: 'memory' | 'redis' | 'kafka' = 'memory';

  @IsOptional()
  @IsString()
  REDIS_URL?: string;

  /** Comma-separated host:port list. */
  @IsOptional()
  @IsString()
  KAFKA_BROKERS?: string;

  @IsString()
  @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters' })
  JWT_SECRET: string;

  /** Token lifetime in seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(60 * 60 * 24 * 90)
  JWT_TTL_SECONDS = 60 * 60 * 24 * 7;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** 'off' turns every rate limit off (load tests, benchmarks). */
  @IsIn(['on', 'off'])
  RATE_LIMITS: 'on' | 'off' = 'on';

  /** smtp(s)://user:pass@host:port: mail goes out through it; unset, each message is an .eml file under DATA_DIR/mail. */
  @IsOptional()
  @IsString()
  SMTP_URL?: string;

  /** The From of every message. */
  @IsString()
  MAIL_FROM = 'SquadReviews <no-reply@squadreviews.local>';

  /**
   * The site's public origin (https://squad.example): every absolute link the gateway writes (a shared
   * link's og:url and og:image) is built from it, never from a request's Host header; also the one
   * origin CORS allows. Unset in development: http://localhost:PORT; production refuses to start without it.
   */
  @IsOptional()
  @Matches(ORIGIN, { message: 'APP_ORIGIN must be an origin such as https://squad.example (scheme and host, no path)' })
  APP_ORIGIN?: string;

  /** Deprecated alias of APP_ORIGIN, read for links in emails only while APP_ORIGIN is unset (development). */
  @IsString()
  APP_URL = 'http://localhost:3000';

  /** 'off' skips the boot-time pass that recomputes stored counters from their rows. */
  @IsIn(['on', 'off'])
  COUNTER_REPAIR: 'on' | 'off' = 'on';

  /**
   * The port of the process's Prometheus metrics (GET /metrics), apart from the public port so they
   * are reachable inside the deployment only; unset, metrics are not served. 0 picks a free port.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  /** The address the metrics port listens on: loopback unless the scraper is on another host (0.0.0.0 in a pod). */
  @IsString()
  METRICS_HOST = '127.0.0.1';

  /** Comma-separated emails whose accounts are admins (issue 22 §3), read by auth at registration and login. */
  @IsString()
  ADMIN_EMAILS = '';
}

export class ConfigError extends Error {
  constructor(service: string, problems: string[]) {
    super(`${service}: invalid configuration\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Validates `env` into `cls`, failing fast with every problem listed at once. */
export function loadConfig<T extends object>(
  cls: new () => T,
  service: string,
  env: Record<string, string | undefined> = process.env,
): T {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(cls, { ...new cls(), ...defined }, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  const problems = errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));
  const c = config as unknown as PlatformConfig;
  if (c.STORE === 'mongo' && !c.MONGO_URL) problems.push('MONGO_URL: required when STORE=mongo');
  if (c.STORE === 'postgres' && !c.POSTGRES_URL) problems.push('POSTGRES_URL: required when STORE=postgres');
  if (c.BUS === 'redis' && !c.REDIS_URL) problems.push('REDIS_URL: required when BUS=redis');
  if (c.BUS === 'kafka' && !c.KAFKA_BROKERS) problems.push('KAFKA_BROKERS: required when BUS=kafka');
  if (c.NODE_ENV === 'production' && !c.APP_ORIGIN) {
    problems.push('APP_ORIGIN: required when NODE_ENV=production (the public origin absolute links are built from, e.g. https://squad.example)');
  }
  if (problems.length > 0) throw new ConfigError(service, problems);
  return config;
}

/** The store engine's settings from the validated config (the data root, the engine's URL, PostgreSQL's pool). */
export function storeSettings(c: PlatformConfig): StoreSettings {
  return {
    engine: c.STORE,
    dataDir: c.DATA_DIR,
    mongoUrl: c.MONGO_URL,
    postgresUrl: c.POSTGRES_URL,
    postgresPool: {
      max: c.POSTGRES_POOL_MAX,
      connectTimeoutMs: c.POSTGRES_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: c.POSTGRES_IDLE_TIMEOUT_MS,
      queryTimeoutMs: c.POSTGRES_QUERY_TIMEOUT_MS,
    },
  };
}
