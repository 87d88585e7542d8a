import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { DEFAULT_SETTINGS } from '@app/contracts';
import { MemoryTransport } from '@app/bus';
import { buildService } from '@app/platform';
import { SqliteStore } from '@app/store';
import { testConfig, TestService } from '@app/testing';
import { followsCollection } from '../follows/follow.collection';
import { ProfileDoc, profilesCollection } from '../profiles/profile.collection';
import { Member, registerMember, startSocial } from '../social.fixture';
import { socialService } from '../social.service-definition';
import { SocialCountersRepair } from './counters.repair';

describe('social counter repair', () => {
  let svc: TestService;
  let repair: SocialCountersRepair;
  let ali: Member;
  let burak: Member;
  let cem: Member;

  const profiles = () => svc.store.collection(profilesCollection);
  const counts = async (m: Member) => {
    const doc = await profiles().findById(m.id);
    return { followers: doc?.followers_count, following: doc?.following_count };
  };

  beforeAll(async () => {
    svc = await startSocial();
    repair = svc.app.get(SocialCountersRepair);
    ali = await registerMember(svc, 'Ali');
    burak = await registerMember(svc, 'Burak');
    cem = await registerMember(svc, 'Cem', 'private');
    const follow = (by: Member, target: Member) => svc.http().post(`/api/follows/users/${target.id}`).set(by.auth).expect(200);
    await follow(burak, ali);
    await follow(cem, ali);
    await follow(ali, burak);
    // A pending request counts on neither side.
    await follow(ali, cem);
  });

  afterAll(() => svc.close());

  it('leaves counters that agree with the follow rows alone', async () => {
    const before = await profiles().find({});
    expect(await repair.repair()).toEqual({ 'profiles.followers_count': 0, 'profiles.following_count': 0 });
    expect(await profiles().find({})).toEqual(before);
    expect(await counts(ali)).toEqual({ followers: 2, following: 1 });
  });

  it('fixes exactly the counters that disagree with the follow rows', async () => {
    // Raised before a row that never came, and not lowered after a row that went.
    await profiles().updateOne({ _id: ali.id }, { $set: { followers_count: 3, following_count: 2 } });
    await profiles().updateOne({ _id: cem.id }, { $set: { followers_count: 1 } });
    const untouched = await profiles().findById(burak.id);

    expect(await repair.repair()).toEqual({ 'profiles.followers_count': 2, 'profiles.following_count': 1 });

    expect(await counts(ali)).toEqual({ followers: 2, following: 1 });
    expect(await counts(cem)).toEqual({ followers: 0, following: 1 });
    expect(await profiles().findById(burak.id)).toEqual(untouched);
    const view = await svc.http().get(`/api/users/profile/${ali.username}`).set(ali.auth);
    expect(view.body.data).toMatchObject({ followers_count: 2, following_count: 1 });
    expect(await repair.repair()).toEqual({ 'profiles.followers_count': 0, 'profiles.following_count': 0 });
  });

  it('counts an accepted request and forgets a removed follow, as FollowsService does', async () => {
    await svc.http().post(`/api/follows/requests/${ali.id}/accept`).set(cem.auth).expect(200);
    await svc.http().delete(`/api/follows/users/${ali.id}`).set(burak.auth).expect(200);
    expect(await repair.repair()).toEqual({ 'profiles.followers_count': 0, 'profiles.following_count': 0 });
    expect(await counts(cem)).toEqual({ followers: 1, following: 1 });
    expect(await counts(ali)).toEqual({ followers: 1, following: 2 });
  });
});

describe('social counter repair at boot', () => {
  let dir: string;
  let app: INestApplication | undefined;

  const profile = (id: string, followers: number): ProfileDoc => ({
    _id: id,
    username: id,
    display_name: id,
    name: id,
    email: `${id}@example.com`,
    bio: '',
    profile_image_url: null,
    created_at: '2030-01-01T00:00:00.000Z',
    followers_count: followers,
    following_count: 0,
    settings: { ...DEFAULT_SETTINGS },
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'social-counters-'));
    // What a crash left on disk: a follow row whose counters were never raised.
    const store = new SqliteStore({ file: join(dir, 'service.sqlite') });
    await store.open(socialService.collections);
    await store.collection(profilesCollection).insertMany([profile('a', 0), profile('b', 0)]);
    await store.collection(followsCollection).insert({
      follower_id: 'b',
      followee_id: 'a',
      status: 'following',
      requested_at: '2030-01-01T00:00:00.000Z',
      since: '2030-01-01T00:00:00.000Z',
    });
    await store.close();
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('recomputes the follow counters while the service boots', async () => {
    const store = new SqliteStore({ file: join(dir, 'service.sqlite') });
    app = await buildService(socialService, { config: testConfig(), store, transport: new MemoryTransport() });
    expect((await store.collection(profilesCollection).findById('a'))?.followers_count).toBe(1);
    expect((await store.collection(profilesCollection).findById('b'))?.following_count).toBe(1);
  });
});
