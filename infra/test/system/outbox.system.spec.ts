import { INestApplication } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { AnyEventEnvelope, EventEnvelope } from '@app/contracts';
import { MemoryTransport, OutboxDoc, outboxCollection } from '@app/bus';
import { buildService } from '@app/platform';
import { BaseDoc, CollectionDef, newId, serviceDataFile, SqliteStore } from '@app/store';
import { TEST_JWT_SECRET, testConfig } from '@app/testing';
import { socialService } from '../../../services/social/src/social.service-definition';

/**
 * Issue 11 §1: a service dies after its write and before its publish. The follow is stored
 * and so is its outbox row; the event never reached the bus. A fresh process on the same
 * data publishes it from the outbox at bootstrap, and the consumers get it.
 */

/** The bus as a process about to be killed sees it: every publish from the service is lost. */
class CrashBeforePublish extends MemoryTransport {
  lost = 0;

  override async publish(): Promise<never> {
    this.lost++;
    throw new Error('process killed before publish');
  }

  /** Events from other services still arrive (the member read models). */
  async feed(event: AnyEventEnvelope): Promise<void> {
    await super.publish(event);
  }
}

function registered(userId: string, username: string): AnyEventEnvelope {
  return {
    id: newId(),
    type: 'user.registered',
    version: 1,
    occurredAt: new Date().toISOString(),
    actorId: userId,
    key: userId,
    payload: {
      userId,
      username,
      email: `${username}@example.com`,
      display_name: username,
      name: username,
      profile_image_url: null,
      created_at: new Date().toISOString(),
    },
  } as AnyEventEnvelope;
}

async function outboxRows(dataDir: string): Promise<OutboxDoc[]> {
  const store = new SqliteStore({ file: serviceDataFile(dataDir, socialService.name) });
  await store.open([outboxCollection] as CollectionDef<BaseDoc>[]);
  try {
    return await store.collection(outboxCollection).find({});
  } finally {
    await store.close();
  }
}

describe('outbox: an event outlives a crash between write and publish', () => {
  const jwt = new JwtService({ secret: TEST_JWT_SECRET, signOptions: { algorithm: 'HS256', expiresIn: 3600 } });
  const ada = { id: newId(), username: 'ada' };
  const bob = { id: newId(), username: 'bob' };
  const auth = { Authorization: `Bearer ${jwt.sign({ sub: ada.id, username: ada.username })}` };
  let dataDir: string;
  let app: INestApplication | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'outbox-'));
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes the follow.created the dead process never sent, once, after restart', async () => {
    const config = testConfig({ DATA_DIR: dataDir });

    // 1. The doomed process: the follow is written, its publish is lost.
    const doomed = new CrashBeforePublish();
    app = await buildService(socialService, { config, transport: doomed });
    await doomed.feed(registered(ada.id, ada.username));
    await doomed.feed(registered(bob.id, bob.username));
    await doomed.drain();
    const follow = await request(app.getHttpServer()).post(`/api/follows/users/${bob.id}`).set(auth);
    expect(follow.status).toBe(200);
    expect(doomed.lost).toBeGreaterThanOrEqual(1);
    await app.close(); // the crash: nothing more happens in this process
    app = undefined;

    const left = await outboxRows(dataDir);
    expect(left.map((r) => r.event.type)).toEqual(['follow.created']);

    // 2. The restart: a working bus and a consumer subscribed before the service boots.
    const bus = new MemoryTransport();
    const delivered: EventEnvelope<'follow.created'>[] = [];
    await bus.subscribe({
      group: 'notifications-probe',
      consumer: 'probe',
      types: ['follow.created'],
      handler: async (event) => void delivered.push(event as EventEnvelope<'follow.created'>),
    });
    app = await buildService(socialService, { config, transport: bus });
    const until = Date.now() + 5_000;
    while (delivered.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await bus.drain();

    expect(delivered).toHaveLength(1);
    expect(delivered[0].id).toBe(left[0]._id);
    expect(delivered[0].payload).toEqual({ followerId: ada.id, followeeId: bob.id });
    // The write itself survived too, and the outbox is empty once published.
    const status = await request(app.getHttpServer()).get(`/api/follows/status/${bob.id}`).set(auth);
    expect(status.body.data).toMatchObject({ isFollowing: true });
    await new Promise((r) => setTimeout(r, 100));
    await app.close();
    app = undefined;
    expect(await outboxRows(dataDir)).toEqual([]);
  });
});
