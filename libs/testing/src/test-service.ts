import { INestApplication } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { EventPayloads, EventType, Role } from '@app/contracts';
import { MemoryTransport } from '@app/bus';
import { loadConfig, PlatformConfig, ServiceDefinition, buildService } from '@app/platform';
import { newId, SqliteStore } from '@app/store';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export function testConfig(overrides: Record<string, string> = {}): PlatformConfig {
  return loadConfig(PlatformConfig, 'test', {
    NODE_ENV: 'test',
    DATA_DIR: ':memory:',
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    ...overrides,
  });
}

export interface TestService {
  app: INestApplication;
  transport: MemoryTransport;
  store: SqliteStore;
  http: () => ReturnType<typeof request>;
  /** A bearer header for a member, as the auth service would sign it (with a site role when given). */
  authHeader(user: { id: string; username: string; role?: Role }): { Authorization: string };
  /** Publishes an event as another service would, and waits until it is handled. */
  publish<T extends EventType>(type: T, payload: EventPayloads[T], key?: string, actorId?: string | null): Promise<void>;
  /** Waits until every event published so far has been handled. */
  settle(): Promise<void>;
  /** Events this service emitted, oldest first. */
  emitted<T extends EventType>(type: T): EventPayloads[T][];
  close(): Promise<void>;
}

/** One service with in-memory engines, for supertest; `env` overrides configuration variables. */
export async function createTestService(definition: ServiceDefinition, env: Record<string, string> = {}): Promise<TestService> {
  const transport = new MemoryTransport();
  const store = new SqliteStore();
  const config = testConfig(env);
  const seen: { type: EventType; payload: unknown }[] = [];
  await transport.subscribe({
    group: 'test-observer',
    consumer: 'observer',
    types: [] as EventType[],
    handler: async () => undefined,
  });
  const originalPublish = transport.publish.bind(transport);
  transport.publish = async (event) => {
    seen.push({ type: event.type, payload: event.payload });
    return originalPublish(event);
  };
  const app = await buildService(definition, { config, store, transport });
  const jwt = new JwtService({ secret: TEST_JWT_SECRET, signOptions: { algorithm: 'HS256', expiresIn: 3600 } });
  return {
    app,
    transport,
    store,
    http: () => request(app.getHttpServer()),
    authHeader: (user) => ({
      Authorization: `Bearer ${jwt.sign({ sub: user.id, username: user.username, ...(user.role && { role: user.role }) })}`,
    }),
    async publish(type, payload, key, actorId = null) {
      await originalPublish({
        id: newId(),
        type,
        version: 1,
        occurredAt: new Date().toISOString(),
        actorId,
        key: key ?? newId(),
        payload,
      } as never);
      await transport.drain();
    },
    settle: () => transport.drain(),
    emitted: <T extends EventType>(type: T) =>
      seen.filter((e) => e.type === type).map((e) => e.payload as EventPayloads[T]),
    async close() {
      await app.close();
      await transport.close();
    },
  };
}
