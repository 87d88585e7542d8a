import { newId } from '@app/store';
import { probeStore, TestService } from '@app/testing';
import { listsCollection } from './lists.collection';
import { makeProduct, member, Member, startReviews } from '../reviews.fixture';

describe('lists (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let bora: Member;
  let cem: Member;
  let productId: string;

  const http = () => svc.http();
  const createList = async (owner: Member, body: Record<string, unknown>) => {
    const res = await http().post('/api/lists').set(owner.auth).send(body);
    if (res.status !== 201) throw new Error(`list create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: string };
  };
  const namesOf = async (viewer: Member, owner: Member) =>
    (await http().get(`/api/lists?userId=${owner.id}`).set(viewer.auth)).body.data.map((l: { name: string }) => l.name);

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, bora, cem] = [await member(svc, 'ayse'), await member(svc, 'bora'), await member(svc, 'cem')];
    productId = (await makeProduct(svc, bora, { name: 'Moka Pot', category: 'Home' })).id;
    // bora follows ayse; cem does not.
    await svc.publish('follow.created', { followerId: bora.id, followeeId: ayse.id });
  });

  afterAll(() => svc.close());

  it('gives every member a "Want to try" list, first, private, which cannot be deleted or renamed', async () => {
    const mine = await http().get('/api/lists').set(ayse.auth);
    expect(mine.body.data).toEqual([expect.objectContaining({ name: 'Want to try', is_default: true, visibility: 'private', item_count: 0 })]);
    const id = mine.body.data[0].id;
    expect((await http().delete(`/api/lists/${id}`).set(ayse.auth)).body).toEqual({
      success: false,
      message: 'The Want to try list cannot be deleted',
      code: 'DEFAULT_LIST_FIXED',
    });
    expect((await http().put(`/api/lists/${id}`).set(ayse.auth).send({ name: 'Other' })).status).toBe(409);
    // A redelivered user.registered does not make a second one.
    await svc.publish('user.registered', {
      userId: ayse.id,
      username: 'ayse',
      email: 'ayse@example.com',
      display_name: 'Ayse',
      name: 'ayse',
      profile_image_url: null,
      created_at: new Date().toISOString(),
    });
    expect((await http().get('/api/lists').set(ayse.auth)).body.meta.total).toBe(1);
  });

  it('gives each member of a run of registrations (an import) one "Want to try" list, in a handful of writes', async () => {
    const ids = Array.from({ length: 8 }, () => newId());
    const registration = (userId: string) =>
      ({ id: newId(), type: 'user.registered', version: 1, occurredAt: new Date().toISOString(), actorId: null, key: newId(),
        payload: { userId, username: `u${userId}`, email: `${userId}@example.com`, display_name: 'U', name: 'U', profile_image_url: null, created_at: new Date().toISOString() } }) as never;
    const probe = probeStore(svc.store);
    try {
      ids.forEach((id) => void svc.transport.publish(registration(id))); // one tick: one group, one run
      await svc.settle();
      expect(probe.writes).toBeLessThanOrEqual(3); // the lists, the user cards, the inbox
    } finally {
      probe.stop();
    }
    [ids[0], ayse.id, ids[1]].forEach((id) => void svc.transport.publish(registration(id))); // redelivered: nothing new
    await svc.settle();
    expect(await svc.store.collection(listsCollection).count({ default_of: { $in: [...ids, ayse.id] } })).toBe(9);
  });

  it('shows public lists to all, followers lists to followers, private ones to the owner only', async () => {
    const pub = await createList(ayse, { name: 'Public picks', visibility: 'public' });
    const fol = await createList(ayse, { name: 'For friends', description: 'Close circle', visibility: 'followers' });
    const priv = await createList(ayse, { name: 'Secret', visibility: 'private' });

    expect(await namesOf(ayse, ayse)).toEqual(['Want to try', 'Public picks', 'For friends', 'Secret']);
    expect(await namesOf(bora, ayse)).toEqual(['Public picks', 'For friends']);
    expect(await namesOf(cem, ayse)).toEqual(['Public picks']);

    expect((await http().get(`/api/lists/${pub.id}`).set(cem.auth)).status).toBe(200);
    expect((await http().get(`/api/lists/${fol.id}`).set(bora.auth)).status).toBe(200);
    expect((await http().get(`/api/lists/${fol.id}`).set(cem.auth)).body.code).toBe('LIST_NOT_FOUND');
    expect((await http().get(`/api/lists/${priv.id}`).set(bora.auth)).status).toBe(404);
    expect((await http().get(`/api/lists/${priv.id}`).set(ayse.auth)).status).toBe(200);
  });

  it('hides a private account\'s public lists from non-followers', async () => {
    const dana = await member(svc, 'dana');
    const list = await createList(dana, { name: 'Dana public', visibility: 'public' });
    await svc.publish('user.settings_updated', {
      userId: dana.id,
      notification_email: true,
      notification_push: true,
      privacy_profile: 'private',
      theme: 'system',
    });
    expect((await http().get(`/api/lists/${list.id}`).set(cem.auth)).status).toBe(404);
    await svc.publish('follow.created', { followerId: cem.id, followeeId: dana.id });
    expect((await http().get(`/api/lists/${list.id}`).set(cem.auth)).status).toBe(200);
  });

  it('hides lists both ways across a block', async () => {
    const eda = await member(svc, 'eda');
    const list = await createList(eda, { name: 'Eda public', visibility: 'public' });
    const cemList = await createList(cem, { name: 'Cem public', visibility: 'public' });
    await svc.publish('block.created', { blockerId: eda.id, blockedId: cem.id });
    expect((await http().get(`/api/lists/${list.id}`).set(cem.auth)).status).toBe(404);
    expect((await http().get(`/api/lists/${cemList.id}`).set(eda.auth)).status).toBe(404);
    expect(await namesOf(cem, eda)).toEqual([]);
    expect(await namesOf(eda, cem)).toEqual([]);
  });

  it('adds a product once, with its card and note, and removes it', async () => {
    const list = await createList(ayse, { name: 'Kitchen', visibility: 'public' });
    const add = () => http().post(`/api/lists/${list.id}/items`).set(ayse.auth);
    expect((await add().send({ product_id: productId, note: 'For the cabin' })).body.data).toEqual({ product_id: productId, in_list: true });
    expect((await add().send({ product_id: productId })).status).toBe(200);

    const got = await http().get(`/api/lists/${list.id}`).set(cem.auth);
    expect(got.body.data).toMatchObject({ name: 'Kitchen', item_count: 1, owner: { id: ayse.id } });
    expect(got.body.data.items).toEqual([expect.objectContaining({ note: 'For the cabin', product: expect.objectContaining({ id: productId, name: 'Moka Pot' }) })]);
    expect(got.body.meta).toMatchObject({ total: 1, page: 1 });

    expect((await add().send({ product_id: 'nope' })).body.code).toBe('PRODUCT_NOT_FOUND');
    await http().delete(`/api/lists/${list.id}/items/${productId}`).set(ayse.auth);
    await http().delete(`/api/lists/${list.id}/items/${productId}`).set(ayse.auth);
    const after = await http().get(`/api/lists/${list.id}`).set(ayse.auth);
    expect(after.body.data).toMatchObject({ item_count: 0, items: [] });
  });

  it('says which of the viewer\'s lists hold a product when asked (the "Add to list" checks, issue 31 §5)', async () => {
    const dana = await member(svc, 'dana');
    const kitchen = await createList(dana, { name: 'Kitchen', visibility: 'public' });
    await createList(dana, { name: 'Gifts', visibility: 'private' });
    await http().post(`/api/lists/${kitchen.id}/items`).set(dana.auth).send({ product_id: productId });
    const holding = async () =>
      (await http().get(`/api/lists?productId=${productId}`).set(dana.auth)).body.data.map((l: { name: string; has_product: boolean }) => [l.name, l.has_product]);
    expect(await holding()).toEqual([['Want to try', false], ['Kitchen', true], ['Gifts', false]]);
    await http().delete(`/api/lists/${kitchen.id}/items/${productId}`).set(dana.auth);
    expect(await holding()).toEqual([['Want to try', false], ['Kitchen', false], ['Gifts', false]]);
    // Without productId the lists say nothing about it; a malformed one is a 400.
    const plain = await http().get('/api/lists').set(dana.auth);
    expect(plain.body.data.every((l: object) => !('has_product' in l))).toBe(true);
    expect((await http().get(`/api/lists?productId=${'x'.repeat(65)}`).set(dana.auth)).status).toBe(400);
    expect((await http().get('/api/lists?productId[$ne]=x').set(dana.auth)).status).toBe(400);
  });

  it('lets only the owner change a list', async () => {
    const list = await createList(ayse, { name: 'Mine', visibility: 'public' });
    expect((await http().put(`/api/lists/${list.id}`).set(cem.auth).send({ name: 'Taken' })).body.code).toBe('NOT_LIST_OWNER');
    expect((await http().delete(`/api/lists/${list.id}`).set(cem.auth)).status).toBe(403);
    expect((await http().post(`/api/lists/${list.id}/items`).set(cem.auth).send({ product_id: productId })).status).toBe(403);
    expect((await http().delete(`/api/lists/${list.id}/items/${productId}`).set(cem.auth)).status).toBe(403);

    const put = await http().put(`/api/lists/${list.id}`).set(ayse.auth).send({ name: 'Mine, renamed', visibility: 'private' });
    expect(put.body.data).toMatchObject({ name: 'Mine, renamed', visibility: 'private' });
    expect((await http().get(`/api/lists/${list.id}`).set(cem.auth)).status).toBe(404);
    expect((await http().delete(`/api/lists/${list.id}`).set(ayse.auth)).body.data).toEqual({ deleted: true });
    expect((await http().get(`/api/lists/${list.id}`).set(ayse.auth)).status).toBe(404);
  });

  it('refuses bad input with field errors', async () => {
    const post = (body: Record<string, unknown>) => http().post('/api/lists').set(ayse.auth).send(body);
    expect((await post({ name: 'x'.repeat(101), visibility: 'public' })).status).toBe(400);
    expect((await post({ name: 'ok', description: 'x'.repeat(501), visibility: 'public' })).status).toBe(400);
    expect((await post({ name: 'ok', visibility: 'friends' })).body.code).toBe('VALIDATION_FAILED');
    expect((await post({ name: '  ', visibility: 'public' })).status).toBe(400);
    expect((await post({ name: 'ok', visibility: 'public', owner: 'x' })).status).toBe(400);
    const list = await createList(ayse, { name: 'Notes', visibility: 'public' });
    expect((await http().post(`/api/lists/${list.id}/items`).set(ayse.auth).send({ product_id: productId, note: 'x'.repeat(281) })).status).toBe(400);
    expect((await http().post(`/api/lists/${list.id}/items`).set(ayse.auth).send({ product_id: { $ne: 'a' } })).status).toBe(400);
    expect((await http().get('/api/lists?sort=name').set(ayse.auth)).status).toBe(400);
  });
});
