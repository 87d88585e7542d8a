import { BadRequestException } from '@nestjs/common';
import { IsString } from 'class-validator';
import { AnyEventEnvelope } from '@app/contracts';
import { EventBus, MemoryTransport, outboxCollection } from '@app/bus';
import { defineCollection, SqliteStore } from '@app/store';
import { BatchConflict, IMPORT_BATCH, importRows } from './bulk-import';

class NameDto {
  @IsString()
  name!: string;
}

const names = defineCollection<{ _id: string; name: string }>('names');

describe('importRows', () => {
  let store: SqliteStore;
  let transport: MemoryTransport;
  let bus: EventBus;

  beforeEach(async () => {
    store = new SqliteStore();
    await store.open([outboxCollection, names]);
    transport = new MemoryTransport();
    bus = new EventBus(transport, store);
  });

  afterEach(async () => {
    await transport.close();
    await bus.dropPublished();
    await store.close();
  });

  const importNames = (count: number) =>
    importRows(bus, NameDto, Array.from({ length: count }, (_, i) => (i === 3 ? { name: 3 } : { name: `n${i}` })), (row, i) =>
      bus.emitWith(
        { type: 'follow.created', payload: { followerId: row.name, followeeId: 'x' }, key: row.name, proof: { collection: names, match: { _id: `${i}` }, present: true } },
        () => store.collection(names).insert({ _id: `${i}`, name: row.name }),
      ),
    );

  it('waits for a slow consumer: no batch is written before the events of the batch two before it were handled', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const handled: AnyEventEnvelope[] = [];
    await transport.subscribe({ group: 'slow', consumer: 'slow', types: ['follow.created'], handler: async (e) => void (await gate, handled.push(e)) });

    const report = importNames(IMPORT_BATCH * 4);
    const written = () => store.collection(names).count({});
    const twoBatches = IMPORT_BATCH * 2 - 1; // row 3 refused
    for (const deadline = Date.now() + 5000; (await written()) < twoBatches && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    expect(await written()).toBe(twoBatches);

    open();
    const { imported, rejected } = await report;
    expect(rejected).toEqual([expect.objectContaining({ index: 3, status: 400 })]);
    expect(imported.filter(Boolean)).toHaveLength(IMPORT_BATCH * 4 - 1);
    await transport.drain();
    expect(handled).toHaveLength(IMPORT_BATCH * 4 - 1);
  });

  it('takes a batch at once where the kind has one, and sends a batch that met a conflict row by row, with nothing of it left', async () => {
    const handled: AnyEventEnvelope[] = [];
    await transport.subscribe({ group: 'g', consumer: 'g', types: ['follow.created'], handler: async (e) => void handled.push(e) });
    const write = (name: string, id: string) =>
      bus.emitWith(
        { type: 'follow.created', payload: { followerId: name, followeeId: 'x' }, key: name, proof: { collection: names, match: { _id: id }, present: true } },
        () => store.collection(names).insert({ _id: id, name }),
      );
    let conflict = true;
    const batches: string[][] = [];
    const report = await importRows(bus, NameDto, [{ name: 'a' }, { name: 4 }, { name: 'b' }, { name: 'refused' }], {
      row: async (row, i) => (row.name === 'refused' ? Promise.reject(new BadRequestException('no')) : write(row.name, `row${i}`).then(() => `row:${row.name}`)),
      batch: async (rows) => {
        batches.push(rows.map((r) => r.name));
        for (const row of rows) if (row.name !== 'refused') await write(row.name, `batch-${row.name}`);
        if (conflict) throw new BatchConflict('another writer');
        return rows.map((r) => (r.name === 'refused' ? new BadRequestException('no') : `batch:${r.name}`));
      },
    });
    expect(batches).toEqual([['a', 'b', 'refused']]);
    expect(report.imported).toEqual(['row:a', null, 'row:b', null]);
    expect(report.rejected.map((r) => [r.index, r.status])).toEqual([[1, 400], [3, 400]]);
    conflict = false;
    const again = await importRows(bus, NameDto, [{ name: 'c' }, { name: 'refused' }], {
      row: () => Promise.reject(new Error('not row by row')),
      batch: async (rows) => {
        await write('c', 'batch-c');
        return rows.map((r) => (r.name === 'refused' ? new BadRequestException('no') : `batch:${r.name}`));
      },
    });
    expect(again).toEqual({ imported: ['batch:c', null], rejected: [expect.objectContaining({ index: 1, status: 400, message: 'no' })] });
    await transport.drain();
    expect((await store.collection(names).find({})).map((d) => d._id).sort()).toEqual(['batch-c', 'row0', 'row2']);
    expect(handled.map((e) => (e.payload as { followerId: string }).followerId)).toEqual(['a', 'b', 'c']);
  });
});
