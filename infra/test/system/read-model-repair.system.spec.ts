import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { inboxCollection, outboxCollection } from '@app/bus';
import { blocksCollection, mutesCollection } from '@app/platform';
import { BaseDoc, CollectionDef, createStore, Store } from '@app/store';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { repairReadModels } from '../../launcher/src/read-model-repair';
import { SERVICE_CATALOGUE } from '../../launcher/src/service-catalogue';
import { followEdgesCollection } from '../../../services/reviews/src/read-models/follow-graph.collection';
import { activitiesCollection } from '../../../services/social/src/stats/activity.collection';
import { register, Member } from './chat-clients';

/**
 * Issue 46's repair path: after an incident left derived views wrong (rows lost or left behind),
 * the check finds each difference against a recomputation from the owner's rows, the rebuild puts
 * it right, and the restarted stack serves the right feed again.
 */
describe('read-model repair (embedded data folder)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'repair-'));
  let stack: EmbeddedStack | undefined;
  let ada: Member;
  let bora: Member;
  let cem: Member;
  let review: string;
  const stores = new Map<string, Store>();

  const start = () => startEmbeddedStack({ port: 0, dataDir, seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
  const auth = (m: Member) => ({ Authorization: `Bearer ${m.token}` });

  beforeAll(async () => {
    stack = await start();
    [ada, bora, cem] = [await register(stack.url, 'Ada'), await register(stack.url, 'Bora'), await register(stack.url, 'Cem')];
    await stack.settle();
    const api = () => request(stack!.url);
    await api().post(`/api/follows/users/${bora.id}`).set(auth(ada)).expect(200);
    await api().post(`/api/users/${cem.id}/block`).set(auth(ada)).expect(200);
    await api().post(`/api/users/${cem.id}/mute`).set(auth(bora)).expect(200);
    review = (await api().post('/api/reviews').set(auth(bora)).send({ content: 'Repaired' }).expect(201)).body.data.id;
    await stack.settle();
    await stack.close();
    stack = undefined;
    for (const { definition } of SERVICE_CATALOGUE) {
      const store = createStore(definition.name, { engine: 'sqlite', dataDir });
      await store.open([...definition.collections, outboxCollection, inboxCollection] as CollectionDef<BaseDoc>[]);
      stores.set(definition.name, store);
    }
  }, 60_000);

  afterAll(async () => {
    for (const store of stores.values()) await store.close().catch(() => undefined);
    await stack?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const quiet = () => undefined;

  it('finds nothing to repair in views the events kept right', async () => {
    const reports = await repairReadModels({ stores, mode: 'check', log: quiet });
    expect(reports.map((r) => r.view)).toEqual(expect.arrayContaining(['reviews.follow_edges', 'messaging.blocks', 'reviews.mutes', 'social.activities (reviews)']));
    expect(reports.filter((r) => r.missing + r.extra > 0)).toEqual([]);
  });

  it('finds lost and left-behind rows, rebuilds them, and the restarted stack serves the right feed', async () => {
    // The incident: reviews lost Ada's follow edge, messaging lost the block, notifications kept a mute that was never made, social lost a review count.
    await stores.get('reviews')!.collection(followEdgesCollection).deleteMany({ follower_id: ada.id });
    await stores.get('messaging')!.collection(blocksCollection).deleteMany({ blocker_id: ada.id });
    await stores.get('notifications')!.collection(mutesCollection).insert({ _id: `${cem.id}:${ada.id}`, muter_id: cem.id, muted_id: ada.id });
    await stores.get('social')!.collection(activitiesCollection).updateOne({ _id: `review:${review}` }, { $set: { active: false } });

    const found = await repairReadModels({ stores, mode: 'check', log: quiet });
    const wrong = Object.fromEntries(found.filter((r) => r.missing + r.extra > 0).map((r) => [r.view, [r.missing, r.extra]]));
    expect(wrong).toEqual({
      'reviews.follow_edges': [1, 0],
      'messaging.blocks': [1, 0],
      'notifications.mutes': [0, 1],
      'social.activities (reviews)': [1, 0],
    });
    // A check of one service looks at that service's views only.
    expect((await repairReadModels({ stores, service: 'messaging', mode: 'check', log: quiet })).every((r) => r.view.startsWith('messaging.'))).toBe(true);

    const rebuilt = await repairReadModels({ stores, mode: 'rebuild', log: quiet });
    expect(rebuilt.filter((r) => r.repaired).map((r) => r.view).sort()).toEqual(Object.keys(wrong).sort());
    expect((await repairReadModels({ stores, mode: 'check', log: quiet })).filter((r) => r.missing + r.extra > 0)).toEqual([]);

    for (const store of stores.values()) await store.close();
    stores.clear();
    stack = await start();
    const feed = await request(stack.url).get('/api/feed').set(auth(ada)).expect(200);
    expect((feed.body.data as { id: string }[]).map((r) => r.id)).toEqual([review]);
    const opened = await request(stack.url).post('/api/messages/conversations').set(auth(cem)).send({ memberIds: [ada.id] });
    expect(opened.status).toBe(403);
    const profile = await request(stack.url).get(`/api/users/profile/${bora.username}`).set(auth(bora)).expect(200);
    expect(profile.body.data.reviews_count).toBe(1);
  }, 60_000);
});
