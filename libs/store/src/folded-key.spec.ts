import { FoldedKey } from './folded-key';
import { SqliteStore } from './sqlite/sqlite-store';
import { Collection, defineCollection } from './store.port';

interface Named {
  _id: string;
  name: string;
  about: string;
  key?: string;
}

const namedCollection = defineCollection<Named>('named');
const key = new FoldedKey<Named>('key', ['name', 'about']);

describe('FoldedKey', () => {
  let store: SqliteStore;
  let named: Collection<Named>;

  const names = async (query: string) => (await named.find(key.matching(query), { sort: { _id: 1 } })).map((d) => d.name);

  beforeEach(async () => {
    store = new SqliteStore({ file: ':memory:' });
    await store.open([namedCollection]);
    named = store.collection(namedCollection);
  });

  afterEach(() => store.close());

  it('folds each field on its own line', () => {
    expect(key.of({ name: 'Şule IŞIK', about: 'İstanbul' })).toBe('sule isik\nistanbul');
    expect(key.of({ name: 'Ada' })).toBe('ada\n');
  });

  it('matches a folded substring either way round, first letters included, and regex characters as text', async () => {
    const rows = [
      { _id: '1', name: 'Şule', about: '' },
      { _id: '2', name: 'Işık', about: 'İstanbul' },
      { _id: '3', name: 'Ada (5k+)', about: 'ankara' },
    ];
    await named.insertMany(rows.map((r) => ({ ...r, key: key.of(r) })));
    expect(await names('sule')).toEqual(['Şule']);
    expect(await names('ŞU')).toEqual(['Şule']);
    expect(await names('ISIK')).toEqual(['Işık']);
    expect(await names('ışı')).toEqual(['Işık']);
    expect(await names('istanbul')).toEqual(['Işık']);
    expect(await names('(5k+)')).toEqual(['Ada (5k+)']);
    expect(await names('.*')).toEqual([]);
    // A match stays within one field: no name ends where the next begins.
    expect(await names('e\n')).toEqual([]);
  });

  it('settles a key a concurrent write left behind, unless a searched field changed since', async () => {
    await named.insertMany([
      { _id: '1', name: 'Şule', about: 'İzmir', key: 'sule\nankara' },
      { _id: '2', name: 'Işık', about: '', key: 'stale' },
    ]);
    await key.settle(named, (await named.findById('1'))!);
    expect((await named.findById('1'))?.key).toBe('sule\nizmir');
    await key.settle(named, { _id: '2', name: 'Işıl', about: '', key: 'stale' });
    expect((await named.findById('2'))?.key).toBe('stale');
  });

  it('fills the key on rows lacking it, in batches, and finds nothing to do the second time', async () => {
    await named.insertMany([
      { _id: '1', name: 'Şule', about: '' },
      { _id: '2', name: 'Işık', about: '' },
      { _id: '3', name: 'İpek', about: '', key: 'kept' },
    ]);
    expect(await key.fill(named, 1)).toBe(2);
    expect((await named.find({}, { sort: { _id: 1 } })).map((d) => d.key)).toEqual(['sule\n', 'isik\n', 'kept']);
    expect(await key.fill(named)).toBe(0);
  });
});
