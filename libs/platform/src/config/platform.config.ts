import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

/**
 * Settings every service shares, read from the environment and validated at boot
 * (a missing or malformed variable stops the process with a readable message).
 */
export class PlatformConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsIn(['sqlite', 'mongo'])
  STORE: 'sqlite' | 'mongo' = 'sqlite';

  /** Data root: one SQLite file per service under it, media and the JWT secret; ':memory:' keeps data in memory (tests). */
  @IsString()
  DATA_DIR = '.data';

  @IsOptional()
  @IsString()
  MONGO_URL?: string;

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

  /** The address members open the app at: links in emails (password reset) point there. */
  @IsString()
  APP_URL = 'http://localhost:3000';

  /** 'off' skips the boot-time pass that recomputes stored counters from their rows. */
  @IsIn(['on', 'off'])
  COUNTER_REPAIR: 'on' | 'off' = 'on';

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
  if (c.BUS === 'redis' && !c.REDIS_URL) problems.push('REDIS_URL: required when BUS=redis');
  if (c.BUS === 'kafka' && !c.KAFKA_BROKERS) problems.push('KAFKA_BROKERS: required when BUS=kafka');
  if (problems.length > 0) throw new ConfigError(service, problems);
  return config;
}
