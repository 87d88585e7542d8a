import { ConfigError, loadConfig, PlatformConfig, storeSettings } from './platform.config';

const SECRET = 'x'.repeat(32);

describe('PlatformConfig: the store settings', () => {
  it('STORE=postgres needs POSTGRES_URL, and says so by name', () => {
    expect(() => loadConfig(PlatformConfig, 'auth', { JWT_SECRET: SECRET, STORE: 'postgres' })).toThrow(
      new ConfigError('auth', ['POSTGRES_URL: required when STORE=postgres']),
    );
  });

  it('refuses an unknown engine and a pool setting out of range', () => {
    const error = (() => {
      try {
        loadConfig(PlatformConfig, 'auth', { JWT_SECRET: SECRET, STORE: 'mysql', POSTGRES_POOL_MAX: '0' });
      } catch (err) {
        return err as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toMatch(/STORE: /);
    expect(error?.message).toMatch(/POSTGRES_POOL_MAX: /);
  });

  it('hands the URL and the pool settings (defaults, or numbers from the environment) to the store', () => {
    const config = loadConfig(PlatformConfig, 'reviews', {
      JWT_SECRET: SECRET,
      STORE: 'postgres',
      POSTGRES_URL: 'postgres://app:pw@db:5432/squadreviews',
      POSTGRES_POOL_MAX: '25',
      POSTGRES_QUERY_TIMEOUT_MS: '1500',
    });
    expect(storeSettings(config)).toEqual({
      engine: 'postgres',
      dataDir: '.data',
      mongoUrl: undefined,
      postgresUrl: 'postgres://app:pw@db:5432/squadreviews',
      postgresPool: { max: 25, connectTimeoutMs: 5000, idleTimeoutMs: 30_000, queryTimeoutMs: 1500 },
    });
  });
});

describe('PlatformConfig: APP_ORIGIN (issue 45 §5)', () => {
  it('is required in production, and says so by name', () => {
    expect(() => loadConfig(PlatformConfig, 'gateway', { JWT_SECRET: SECRET, NODE_ENV: 'production' })).toThrow(
      /APP_ORIGIN: required when NODE_ENV=production/,
    );
    expect(loadConfig(PlatformConfig, 'gateway', { JWT_SECRET: SECRET, NODE_ENV: 'production', APP_ORIGIN: 'https://squad.example' }).APP_ORIGIN).toBe(
      'https://squad.example',
    );
  });

  it('may be left out in development and tests', () => {
    expect(loadConfig(PlatformConfig, 'gateway', { JWT_SECRET: SECRET }).APP_ORIGIN).toBeUndefined();
    expect(loadConfig(PlatformConfig, 'gateway', { JWT_SECRET: SECRET, NODE_ENV: 'test' }).APP_ORIGIN).toBeUndefined();
  });

  it.each(['squad.example', 'https://squad.example/app', 'javascript:alert(1)', 'https://user@squad.example'])('refuses %s, which is no origin', (origin) => {
    expect(() => loadConfig(PlatformConfig, 'gateway', { JWT_SECRET: SECRET, APP_ORIGIN: origin })).toThrow(/APP_ORIGIN must be an origin/);
  });
});
