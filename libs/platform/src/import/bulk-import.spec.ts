import { IsString } from 'class-validator';
import { AnyEventEnvelope } from '@app/contracts';
import { EventBus, MemoryTransport, outboxCollection } from '@app/bus';
import { defineCollection, SqliteStore } from '@app/store';
import { IMPORT_BATCH, importRows } from './bulk-import';

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
});
