import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('GET /api/reviews/search (the reviews part of the one search)', () => {
  let svc: TestService;
  let ayse: Member;
  let bora: Member;
  let cem: Member;
  let deniz: Member;

  const search = (m: Member, q: string, extra = '') => svc.http().get(`/api/reviews/search?q=${encodeURIComponent(q)}${extra}`).set(m.auth);
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, bora, cem, deniz] = [await member(svc, 'ayse'), await member(svc, 'bora'), await member(svc, 'cem'), await member(svc, 'deniz')];
  });

  afterAll(() => svc.close());

  it('finds products and reviews by words, diacritic- and case-insensitively, best match first', async () => {
    const kettle = await makeProduct(svc, cem, { name: 'Şık Çaydanlık', description: 'Çelik demlik' });
    const once = await makeReview(svc, bora, { title: 'İyi', content: 'Çaydanlık güzel' });
    const thrice = await makeReview(svc, cem, { title: 'Çaydanlık', content: 'çaydanlık, çaydanlık ve ŞEKER' });
    const res = await search(ayse, 'CAYDANLIK');
    expect(res.status).toBe(200);
    expect(ids(res.body.data.products)).toEqual([kettle.id]);
    expect(ids(res.body.data.reviews)).toEqual([thrice.id, once.id]);
    expect(ids((await search(ayse, 'seker caydanlik')).body.data.reviews)).toEqual([thrice.id]);
    expect(ids((await search(ayse, 'iyi')).body.data.reviews)).toEqual([once.id]);
  });

  it('finds an edited review by its new words only', async () => {
    const review = await makeReview(svc, deniz, { content: 'Blender grinds well' });
    await svc.http().put(`/api/reviews/${review.id}`).set(deniz.auth).send({ content: 'Mixer whips well' });
    expect(ids((await search(ayse, 'blender')).body.data.reviews)).toEqual([]);
    expect(ids((await search(ayse, 'mixer')).body.data.reviews)).toEqual([review.id]);
  });

  it('leaves out reviews of authors blocked either way, private to the viewer, or muted by the viewer', async () => {
    const blocked = await makeReview(svc, bora, { content: 'Toaster from bora' });
    const privateOne = await makeReview(svc, cem, { content: 'Toaster from cem' });
    const muted = await makeReview(svc, deniz, { content: 'Toaster from deniz' });
    await svc.publish('block.created', { blockerId: bora.id, blockedId: ayse.id });
    await svc.publish('user.settings_updated', { userId: cem.id, notification_email: true, notification_push: true, privacy_profile: 'private', theme: 'system' });
    await svc.publish('mute.created', { muterId: ayse.id, mutedId: deniz.id });
    expect(ids((await search(ayse, 'toaster')).body.data.reviews)).toEqual([]);
    // Deniz follows no one: Cem's private review stays hidden from Deniz too; Bora's block concerns Ayse only.
    expect(ids((await search(deniz, 'toaster')).body.data.reviews).sort()).toEqual([blocked.id, muted.id].sort());
    expect(ids((await search(cem, 'toaster')).body.data.reviews)).toContain(privateOne.id);
  });

  it("leaves out reviews matching the viewer's keyword filters, but not the viewer's own or other viewers'", async () => {
    // Fresh members: the visibility test above left blocks, a private account and a mute behind.
    const [emre, fatma, gul] = [await member(svc, 'emre'), await member(svc, 'fatma'), await member(svc, 'gul')];
    const spoiler = await makeReview(svc, fatma, { content: 'Kettle ending spoiler revealed' });
    const plain = await makeReview(svc, gul, { content: 'Kettle boils fast' });
    const own = await makeReview(svc, emre, { content: 'My kettle spoiler' });
    expect((await svc.http().post('/api/filters').set(emre.auth).send({ phrase: 'SPOİLER' })).status).toBe(201);
    const forEmre = (await search(emre, 'kettle')).body.data.reviews as { id: string; filtered_by?: string }[];
    expect(ids(forEmre).sort()).toEqual([plain.id, own.id].sort());
    expect(forEmre.every((r) => r.filtered_by === undefined)).toBe(true);
    expect(ids((await search(gul, 'kettle')).body.data.reviews)).toContain(spoiler.id);
  });

  it('leaves out a review a moderator hid, and finds it again once unhidden', async () => {
    const [author, reader, m] = [await member(svc, 'hakan'), await member(svc, 'irem'), await member(svc, 'mod')];
    const review = await makeReview(svc, author, { content: 'Waffle iron review' });
    const mod = svc.authHeader({ id: m.id, username: m.username, role: 'moderator' });
    await svc.publish('moderation.role_changed', { userId: m.id, role: 'moderator' });
    expect(ids((await search(reader, 'waffle')).body.data.reviews)).toEqual([review.id]);
    expect((await svc.http().post(`/api/moderation/reviews/${review.id}/hide`).set(mod).send({ reason: 'Spam' })).status).toBe(200);
    expect(ids((await search(reader, 'waffle')).body.data.reviews)).toEqual([]);
    await svc.http().post(`/api/moderation/reviews/${review.id}/unhide`).set(mod).send({ reason: 'Appeal' });
    expect(ids((await search(reader, 'waffle')).body.data.reviews)).toEqual([review.id]);
  });

  it.each(['', ' ', 'x'.repeat(101)])('refuses q=%j with a field error', async (q) => {
    const res = await search(ayse, q);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('q');
  });

  it('refuses a limit above 20', async () => {
    expect((await search(ayse, 'toaster', '&limit=21')).status).toBe(400);
  });

  it('names the tags a search asks for or its reviews carry, with the reviews the viewer may see, most used first (issue 43 §5)', async () => {
    await makeReview(svc, ayse, { content: 'Morning #Filtre and #filtrekahve' });
    await makeReview(svc, deniz, { content: 'Evening #filtre' });
    const hidden = await makeReview(svc, bora, { content: 'Secret #filtre' });
    expect(hidden.id).toBeTruthy();
    const tags = async (m: Member, q: string) => (await search(m, q)).body.data.tags;
    // bora blocked ayse and she muted deniz above: only her own review counts for her
    expect(await tags(ayse, '#Filtre')).toEqual([
      { tag: 'filtre', review_count: 1 },
      { tag: 'filtrekahve', review_count: 1 },
    ]);
    expect(await tags(cem, 'filtre')).toEqual([
      { tag: 'filtre', review_count: 3 },
      { tag: 'filtrekahve', review_count: 1 },
    ]);
    expect(await tags(ayse, 'nosuchtag')).toEqual([]);
  });
});

