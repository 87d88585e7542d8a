import { TestService } from '@app/testing';
import { FoldedKeysBackfill } from '@app/platform';
import { makeProduct, member, Member, startReviews } from '../reviews.fixture';
import { productsCollection, productSearchKey } from './product.collection';
import { CATALOGUE_STAMP, catalogueStampCollection } from './catalogue-stamp.collection';

/** What another replica's change leaves: a new stamp, so this replica's keys in memory are stale. */
const moveCatalogueStamp = (svc: TestService) =>
  svc.store.collection(catalogueStampCollection).updateOne({ _id: CATALOGUE_STAMP }, { $set: { stamp: String(Math.random()) } }, { upsert: true });

describe('products (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
    mehmet = await member(svc, 'mehmet');
  });

  afterAll(() => svc.close());

  it('creates a product with a slug, exact fields and the author card, and announces it', async () => {
    const res = await svc
      .http()
      .post('/api/products')
      .set(ayse.auth)
      .send({
        name: 'Mechanical Keyboard',
        brand: 'Keychron',
        description: 'Hot-swappable, RGB',
        price: 149.99,
        category: 'Electronics',
        features: ['Hot-swap', '  ', 'Bluetooth 5.1'],
        image: '/api/media/abc123',
      });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Product created');
    expect(res.body.data).toMatchObject({
      slug: 'mechanical-keyboard',
      name: 'Mechanical Keyboard',
      brand: 'Keychron',
      price: 149.99,
      category: 'Electronics',
      features: ['Hot-swap', 'Bluetooth 5.1'],
      image: '/api/media/abc123',
      rating: 0,
      review_count: 0,
      userId: ayse.id,
      user: { id: ayse.id, username: 'ayse', display_name: 'Ayse', name: 'Ayse', profile_image_url: null },
    });
    await svc.settle();
    expect(svc.emitted('product.created')).toContainEqual(
      expect.objectContaining({ productId: res.body.data.id, slug: 'mechanical-keyboard', userId: ayse.id }),
    );
  });

  it('suffixes the slug when the name is taken, and reads by id or by slug', async () => {
    const second = await makeProduct(svc, mehmet, { name: 'Mechanical Keyboard', category: 'Electronics' });
    expect(second.slug).toBe('mechanical-keyboard-2');
    const bySlug = await svc.http().get('/api/products/mechanical-keyboard-2').set(ayse.auth);
    const byId = await svc.http().get(`/api/products/${second.id}`).set(ayse.auth);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data.id).toBe(second.id);
    expect(byId.body.data.slug).toBe('mechanical-keyboard-2');
  });

  it('answers an unknown product with 404', async () => {
    const res = await svc.http().get('/api/products/nope').set(ayse.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Product not found', code: 'PRODUCT_NOT_FOUND' });
  });

  it.each([
    [{ category: 'Electronics' }, 'name'],
    [{ name: '   ', category: 'Electronics' }, 'name'],
    [{ name: 'X', category: 'Books' }, 'category'],
    [{ name: 'X', category: 'Electronics', price: -1 }, 'price'],
    [{ name: 'X', category: 'Electronics', price: 1.999 }, 'price'],
    [{ name: 'X', category: 'Electronics', price: '12' }, 'price'],
    [{ name: 'X', category: 'Electronics', features: 'fast' }, 'features'],
    [{ name: 'X', category: 'Electronics', features: [1] }, 'features'],
    [{ name: 'X', category: 'Electronics', image: 'data:image/png;base64,AAAA' }, 'image'],
    [{ name: 'X', category: 'Electronics', owner: 'me' }, 'owner'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await svc.http().post('/api/products').set(ayse.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('needs a token', async () => {
    expect((await svc.http().get('/api/products')).status).toBe(401);
  });

  describe('list', () => {
    beforeAll(async () => {
      await makeProduct(svc, mehmet, { name: 'Yoga Mat', category: 'Fitness', description: 'Non-slip and thick' });
      await makeProduct(svc, mehmet, { name: 'Espresso Maker', category: 'Kitchen', description: 'Portable, NON-SLIP base' });
    });

    it('searches name or description case-insensitively, with meta', async () => {
      const res = await svc.http().get('/api/products?search=non-slip').set(ayse.auth);
      expect(res.status).toBe(200);
      expect(res.body.data.map((p: { name: string }) => p.name).sort()).toEqual(['Espresso Maker', 'Yoga Mat']);
      expect(res.body.meta).toEqual({ total: 2, page: 1, limit: 20, totalPages: 1 });
    });

    it('treats regex characters in the search as text', async () => {
      const res = await svc.http().get('/api/products?search=.*').set(ayse.auth);
      expect(res.status).toBe(200);
      expect(res.body.meta.total).toBe(0);
    });

    it('filters by category, All meaning every one, and paginates', async () => {
      const fitness = await svc.http().get('/api/products?category=Fitness').set(ayse.auth);
      expect(fitness.body.data.map((p: { name: string }) => p.name)).toEqual(['Yoga Mat']);
      const all = await svc.http().get('/api/products?category=All&limit=2&page=2').set(ayse.auth);
      expect(all.body.meta).toEqual({ total: 4, page: 2, limit: 2, totalPages: 2 });
      expect(all.body.data).toHaveLength(2);
      const bad = await svc.http().get('/api/products?category=Toys').set(ayse.auth);
      expect(bad.status).toBe(400);
    });
  });

  it('lets only the creator update and delete', async () => {
    const p = await makeProduct(svc, ayse, { name: 'Blender', category: 'Kitchen', price: 50 });
    const foreign = await svc.http().put(`/api/products/${p.id}`).set(mehmet.auth).send({ price: 10 });
    expect(foreign.status).toBe(403);
    const own = await svc.http().put(`/api/products/${p.id}`).set(ayse.auth).send({ price: 45.5, features: ['1.5 L'] });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ price: 45.5, features: ['1.5 L'], name: 'Blender' });
    expect((await svc.http().delete(`/api/products/${p.id}`).set(mehmet.auth)).status).toBe(403);
    expect((await svc.http().delete(`/api/products/${p.id}`).set(ayse.auth)).status).toBe(200);
    expect((await svc.http().get(`/api/products/${p.id}`).set(ayse.auth)).status).toBe(404);
  });

  it('shows renamed authors from user.updated, and Unknown User before a card arrives', async () => {
    await svc.publish('user.updated', {
      userId: mehmet.id,
      username: 'mehmet_k',
      display_name: 'Mehmet K.',
      bio: '',
      profile_image_url: '/api/media/m1',
    });
    const res = await svc.http().get('/api/products?category=Fitness').set(ayse.auth);
    expect(res.body.data[0].user).toMatchObject({ username: 'mehmet_k', name: 'Mehmet K.', profile_image_url: '/api/media/m1' });

    const stranger = svc.authHeader({ id: 'stranger-id', username: 'stranger' });
    const made = await svc.http().post('/api/products').set(stranger).send({ name: 'Lamp', category: 'Home' });
    expect(made.body.data.user).toMatchObject({ id: 'stranger-id', name: 'Unknown User' });
  });
});

describe('product catalogue search folds Turkish letters and accents (issue 21 §5)', () => {
  let svc: TestService;
  let ayse: Member;

  const names = async (search: string) =>
    (await svc.http().get('/api/products').query({ search }).set(ayse.auth)).body.data.map((p: { name: string }) => p.name).sort();

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
    await makeProduct(svc, ayse, { name: 'Şule Çayı' });
    await makeProduct(svc, ayse, { name: 'Işık Lamba' });
    await makeProduct(svc, ayse, { name: 'Simit', description: 'İstanbul usulü' });
  });

  afterAll(() => svc.close());

  it("finds 'Şule' by 'sule', 'Işık' by 'ISIK' and 'İstanbul' (in a description) by 'istanbul', and by first letters", async () => {
    expect(await names('sule')).toEqual(['Şule Çayı']);
    expect(await names('ISIK')).toEqual(['Işık Lamba']);
    expect(await names('istanbul')).toEqual(['Simit']);
    expect(await names('ışı')).toEqual(['Işık Lamba']);
  });

  it('follows an edit and keeps the folded copy out of replies and the export', async () => {
    const { id } = await makeProduct(svc, ayse, { name: 'Kahve' });
    const edited = await svc.http().put(`/api/products/${id}`).set(ayse.auth).send({ name: 'Türk Kahvesi' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).not.toHaveProperty('search_key');
    expect(await names('turk kah')).toEqual(['Türk Kahvesi']);
    const exported = await svc.http().get('/api/reviews/me/export').set(ayse.auth);
    expect(exported.body.data.products).toHaveLength(4);
    for (const row of exported.body.data.products) expect(row).not.toHaveProperty('search_key');
  });

  it('fills the folded copy of products stored before it at boot, once',  async () => {
    const products = svc.store.collection(productsCollection);
    await products.updateMany({ name: 'Simit' }, { $unset: { search_key: '' } });
    await moveCatalogueStamp(svc);
    // A key missing: the catalogue is searched in the store, where that row matches nothing yet.
    expect(await names('istanbul')).toEqual([]);
    await svc.app.get(FoldedKeysBackfill).onApplicationBootstrap();
    expect(await names('istanbul')).toEqual(['Simit']);
    expect(await productSearchKey.fill(products)).toBe(0);
  });
});

// The same pages from the keys in memory and, with a capacity too small to keep them, from the store's index.
describe.each([
  ['the keys in memory', undefined],
  ['the search index', '1'],
])('product search pages (ids from %s, documents from the cache)', (_source, capacity) => {
  let svc: TestService;
  let ayse: Member;
  type Item = { id: string; name: string; liked: boolean; user: { username: string } };

  const list = async (query: Record<string, string | number>) => (await svc.http().get('/api/products').query(query).set(ayse.auth)).body;

  beforeAll(async () => {
    if (capacity) process.env.CATALOGUE_SEARCH_CAPACITY = capacity;
    svc = await startReviews();
    delete process.env.CATALOGUE_SEARCH_CAPACITY;
    ayse = await member(svc, 'ayse');
    for (const name of ['Çay Bardağı', 'Cam Vazo', 'Kahve Değirmeni', 'Işıklı Ayna', 'Cezve']) await makeProduct(svc, ayse, { name, category: 'Kitchen' });
    await makeProduct(svc, ayse, { name: 'Çanta', category: 'Fashion' });
    // Ties on created_at (a bulk import's rows): stored straight, in id order, as the import does.
    const products = svc.store.collection(productsCollection);
    const at = '2026-01-01T00:00:00.000Z';
    const base = { brand: '', description: 'Aynı an', price: 1, category: 'Home' as const, features: [], image: null, user_id: ayse.id, rating_sum: 0, review_count: 0, like_count: 0, created_at: at, updated_at: at };
    for (const [i, name] of ['Cam Tabak', 'Çatal', 'Cam Kase'].entries()) {
      await products.insert({ ...base, _id: `00000000000000000000000${i}`, slug: `tie-${i}`, name, search_key: productSearchKey.of({ name, description: base.description }) });
    }
  });

  afterAll(() => svc.close());

  it('gives the matches of the unfiltered list in its order (newest first, ties in id order), folded, paged and counted', async () => {
    const all: Item[] = (await list({ limit: 100 })).data;
    const expected = all.filter((p) => productSearchKey.of({ name: p.name, description: '' }).includes('ca')).map((p) => p.name);
    expect(expected).toEqual(['Çanta', 'Cam Vazo', 'Çay Bardağı', 'Cam Tabak', 'Çatal', 'Cam Kase']);
    const first = await list({ search: 'CA', limit: 4, page: 1 });
    const second = await list({ search: 'ça', limit: 4, page: 2 });
    expect([...first.data, ...second.data].map((p: Item) => p.name)).toEqual(expected);
    expect(first.meta).toEqual({ total: 6, page: 1, limit: 4, totalPages: 2 });
    expect(second.meta).toEqual({ total: 6, page: 2, limit: 4, totalPages: 2 });
    // Counted when the page is full or past the end, told by the page otherwise.
    expect((await list({ search: 'ca', limit: 6 })).meta).toEqual({ total: 6, page: 1, limit: 6, totalPages: 1 });
    expect((await list({ search: 'ca', limit: 5, page: 2 })).meta).toEqual({ total: 6, page: 2, limit: 5, totalPages: 2 });
    expect(await list({ search: 'ca', limit: 4, page: 3 })).toMatchObject({ data: [], meta: { total: 6, page: 3, limit: 4, totalPages: 2 } });
    // The whole view, as the page of documents gave it (liked, author card).
    expect(first.data[0]).toMatchObject({ name: 'Çanta', liked: false, user: { username: 'ayse' } });
    expect(first.data[0]).not.toHaveProperty('search_key');
  });

  it('narrows by category, and follows a rename and a deletion at once', async () => {
    expect((await list({ search: 'ca', category: 'Kitchen' })).data.map((p: Item) => p.name)).toEqual(['Cam Vazo', 'Çay Bardağı']);
    const vazo = (await list({ search: 'vazo' })).data[0] as Item;
    await svc.http().put(`/api/products/${vazo.id}`).set(ayse.auth).send({ name: 'Sürahi' });
    expect((await list({ search: 'ca', category: 'Kitchen' })).data.map((p: Item) => p.name)).toEqual(['Çay Bardağı']);
    expect((await list({ search: 'surahi' })).data.map((p: Item) => p.name)).toEqual(['Sürahi']);
    await svc.http().delete(`/api/products/${vazo.id}`).set(ayse.auth);
    expect(await list({ search: 'surahi' })).toMatchObject({ data: [], meta: { total: 0 } });
  });
});

describe("the catalogue's search keys in memory", () => {
  let svc: TestService;
  let ayse: Member;

  const names = async (search: string) => (await svc.http().get('/api/products').query({ search }).set(ayse.auth)).body.data.map((p: { name: string }) => p.name);

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
    await makeProduct(svc, ayse, { name: 'Masa Lambası' });
  });

  afterAll(() => svc.close());

  it('answers while the stamp stands, and reads the store again once another replica moves it', async () => {
    expect(await names('lamba')).toEqual(['Masa Lambası']);
    // Stored behind this replica's back (as another replica would), without the stamp: not seen yet.
    const at = new Date().toISOString();
    const name = 'Gece Lambası';
    await svc.store.collection(productsCollection).insert({
      slug: 'gece-lambasi', name, brand: '', description: '', price: 1, category: 'Home', features: [], image: null, user_id: ayse.id,
      rating_sum: 0, review_count: 0, like_count: 0, created_at: at, updated_at: at, search_key: productSearchKey.of({ name, description: '' }),
    });
    expect(await names('lamba')).toEqual(['Masa Lambası']);
    await moveCatalogueStamp(svc);
    expect(await names('lamba')).toEqual(['Gece Lambası', 'Masa Lambası']);
  });

  it('is stale from the moment a change commits on this replica: a new product, an edit, a deletion', async () => {
    const { id } = await makeProduct(svc, ayse, { name: 'Okuma Lambası' });
    expect(await names('okuma')).toEqual(['Okuma Lambası']);
    expect((await svc.http().put(`/api/products/${id}`).set(ayse.auth).send({ category: 'Kitchen' })).status).toBe(200);
    expect((await svc.http().get('/api/products').query({ search: 'okuma', category: 'Kitchen' }).set(ayse.auth)).body.data).toHaveLength(1);
    expect((await svc.http().get('/api/products').query({ search: 'okuma', category: 'Electronics' }).set(ayse.auth)).body.data).toHaveLength(0);
    expect((await svc.http().delete(`/api/products/${id}`).set(ayse.auth)).status).toBe(200);
    expect(await names('okuma')).toEqual([]);
  });
});
