import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineCollection } from '../store.port';
import { importNedbFolder, NEDB_IMPORTED_DIR, parseNedbFile } from './nedb-import';
import { SqliteStore } from './sqlite-store';

/** Data folder written by the last NeDB release (npm start, two members, a review, likes, a chat; then SIGKILL). */
const FIXTURE = resolve(__dirname, '../../test/fixtures/nedb-release');

describe('NeDB import', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nedb-import-'));
    cpSync(FIXTURE, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the line format: later lines win, $$deleted removes, index lines are skipped, $$date is a date, a torn tail is dropped', () => {
    const text = [
      '{"_id":"a","n":1}',
      '{"$$indexCreated":{"fieldName":"n","unique":false,"sparse":false}}',
      '{"_id":"b","n":2,"at":{"$$date":1700000000000}}',
      '{"_id":"a","n":3}',
      '{"$$deleted":true,"_id":"b"}',
      '{"_id":"c","n":4}',
      '{"_id":"d","n"',
    ].join('\n');
    expect(parseNedbFile(text)).toEqual([
      { _id: 'a', n: 3 },
      { _id: 'c', n: 4 },
    ]);
  });

  it('imports a release folder once, keeps the old files aside, and reads dates back as dates', async () => {
    const service = join(dir, 'reviews');
    writeFileSync(join(service, 'dated.db'), '{"_id":"x","at":{"$$date":1700000000000}}\n');
    const file = join(service, 'reviews.sqlite');
    const expected = Object.fromEntries(
      readdirSync(service)
        .filter((f) => f.endsWith('.db'))
        .map((f) => [f.slice(0, -3), parseNedbFile(readFileSync(join(service, f), 'utf8')).length]),
    );
    const result = await importNedbFolder(service, file);
    expect(result).toEqual({ collections: Object.keys(expected).length, documents: Object.values(expected).reduce((a, b) => a + b, 0) });
    expect(readdirSync(service).filter((f) => f.endsWith('.db'))).toEqual([]);
    expect(readdirSync(join(service, NEDB_IMPORTED_DIR))).toContain('reviews.db');

    const store = new SqliteStore({ file });
    await store.open([]);
    for (const [name, count] of Object.entries(expected)) expect([name, await store.collection(defineCollection(name)).count({})]).toEqual([name, count]);
    // The fixture's likes were all toggled off again: every like line has its $$deleted line.
    expect(expected.likes).toBe(0);
    const review = await store.collection(defineCollection<{ _id: string; content: string }>('reviews')).findOne({});
    expect(review?.content).toBe('Çok iyi, 5.0 puan değil ama.');
    expect((await store.collection(defineCollection<{ _id: string; at: Date }>('dated')).findById('x'))?.at).toEqual(new Date(1700000000000));
    await store.close();

    // A second start finds nothing left to import.
    expect(await importNedbFolder(service, file)).toBeNull();
  });

  it('when a crash left the SQLite file complete and the NeDB files in place, only moves them aside', async () => {
    const service = join(dir, 'social');
    const file = join(service, 'social.sqlite');
    await importNedbFolder(service, file);
    cpSync(join(service, NEDB_IMPORTED_DIR, 'profiles.db'), join(service, 'profiles.db'));
    expect(await importNedbFolder(service, file)).toEqual({ collections: 0, documents: 0 });
    expect(existsSync(join(service, 'profiles.db'))).toBe(false);
    const store = new SqliteStore({ file });
    await store.open([]);
    expect(await store.collection(defineCollection('profiles')).count({})).toBe(2);
    await store.close();
  });
});
