import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { MemoryTransport } from '@app/bus';
import { buildService } from '@app/platform';
import { SqliteStore } from '@app/store';
import { testConfig, TestService } from '@app/testing';
import { ReviewDoc, reviewsCollection } from '../reviews/review.collection';
import { reviewsService } from '../reviews.service-definition';
import { makeReview, member, Member, startReviews, storedReview } from '../reviews.fixture';
import { backfillsCollection, TagsBackfill } from './tags.backfill';

/** A review as stored before tags were read from the text (no `tags` field); `oldN` was written N seconds into 2030. */
const oldReview = (id: string, userId: string, content: string): ReviewDoc =>
  storedReview(id, userId, { content, created_at: `2030-01-01T00:00:0${id.slice(-1)}.000Z` });

describe('tags backfill (issue 21 §6)', () => {
  let svc: TestService;
  let backfill: TagsBackfill;
  let ayse: Member;
  let bora: Member;

  const reviews = () => svc.store.collection(reviewsCollection);
  const tagPage = async (tag: string) =>
    (await svc.http().get(`/api/tags/${encodeURIComponent(tag)}/reviews`).set(bora.auth)).body.data.map((r: { id: string }) => r.id);

  beforeAll(async () => {
    svc = await startReviews();
    backfill = svc.app.get(TagsBackfill);
    [ayse, bora] = [await member(svc, 'ayse'), await member(svc, 'bora')];
  });

  afterAll(() => svc.close());

  it('reads the tags of older reviews, in batches, so they appear on tag pages; a second run changes nothing', async () => {
    const fresh = await makeReview(svc, ayse, { content: 'Yeni #Kahve' });
    await reviews().insertMany([
      oldReview('old1', ayse.id, 'Eski #KAHVE ve #Çay'),
      oldReview('old2', ayse.id, 'Etiketsiz'),
      oldReview('old3', ayse.id, 'Yine #kahve #kahve'),
      oldReview('old4', ayse.id, 'Son #IĞDIR'),
      oldReview('old5', ayse.id, 'a#b &#39; değil'),
    ]);
    expect(await tagPage('kahve')).toEqual([fresh.id]);
    const before = await reviews().findById(fresh.id);

    // Two per batch: three rounds for five reviews.
    expect(await backfill.backfill(2)).toBe(5);

    const tagsOf = async (id: string) => (await reviews().findById(id))?.tags;
    expect(await tagsOf('old1')).toEqual(['kahve', 'çay']);
    expect(await tagsOf('old2')).toEqual([]);
    expect(await tagsOf('old3')).toEqual(['kahve']);
    expect(await tagsOf('old4')).toEqual(['ığdır']);
    expect(await tagsOf('old5')).toEqual([]);
    expect(await reviews().findById(fresh.id)).toEqual(before);
    // Newest first: the older reviews carry 2030 times.
    expect(await tagPage('Kahve')).toEqual(['old3', 'old1', fresh.id]);
    expect(await tagPage('ığdır')).toEqual(['old4']);

    const after = await reviews().find({}, { sort: { _id: 1 } });
    expect(await backfill.backfill(2)).toBe(0);
    expect(await reviews().find({}, { sort: { _id: 1 } })).toEqual(after);
  });

  it('leaves alone tags an edit of the text has set meanwhile', async () => {
    await reviews().insert(oldReview('old6', ayse.id, 'Önce #eski'));
    await svc.http().put('/api/reviews/old6').set(ayse.auth).send({ content: 'Sonra #yeni' }).expect(200);
    expect(await backfill.backfill()).toBe(0);
    expect((await reviews().findById('old6'))?.tags).toEqual(['yeni']);
    expect(await tagPage('eski')).toEqual([]);
  });
});

describe('tags backfill at boot', () => {
  let dir: string;
  let app: INestApplication | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'reviews-tags-'));
    const store = new SqliteStore({ file: join(dir, 'service.sqlite') });
    await store.open(reviewsService.collections);
    await store.collection(reviewsCollection).insert(oldReview('r1', 'u1', 'Stored before tags #Retro'));
    await store.close();
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets the tags of stored reviews before the service serves', async () => {
    const store = new SqliteStore({ file: join(dir, 'service.sqlite') });
    app = await buildService(reviewsService, { config: testConfig(), store, transport: new MemoryTransport() });
    expect((await store.collection(reviewsCollection).findById('r1'))?.tags).toEqual(['retro']);
    // Done to the end: a later boot reads no review for it.
    expect(await store.collection(backfillsCollection).findById('tags')).toEqual({ _id: 'tags', at: expect.any(String) });
  });
});
