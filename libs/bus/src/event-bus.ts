import { EVENT_VERSIONS, EventEnvelope, EventPayloads, EventType } from '@app/contracts';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { BaseDoc, Collection, CollectionDef, defineCollection, newId, Store, STORE } from '@app/store';
import { BusTransport } from './bus.port';
import { OutboxDoc, outboxCollection, ProofValue, StoredProof } from './outbox.collection';
import { BUS_TRANSPORT } from './bus.tokens';

const RELAY_EVERY_MS = 1000;
/** Under test every proof is checked right after its change, so a wrong one fails its service's tests. */
const CHECK_PROOFS = process.env.NODE_ENV === 'test';
/** An entry younger than this may still be in its emitter's hands (another replica's). */
const RELAY_GRACE_MS = 2000;

/** Which row shows that an event's change happened: see `StoredProof`. */
export interface ChangeProof {
  collection: CollectionDef<BaseDoc>;
  /** Plain equality on stored fields; dotted paths reach into nested objects. */
  match: Record<string, ProofValue>;
  /** true: the change leaves such a row (insert, update); false: it removes it (delete). */
  present: boolean;
}

/** The events of one `batch`, committed with it and published once it has committed. */
interface BatchScope {
  events: { id: string; event: OutboxDoc['event'] }[];
}

export interface PlannedEvent<T extends EventType> {
  type: T;
  payload: EventPayloads[T];
  /** Aggregate id: partition key, order holds per key. */
  key: string;
  actorId?: string | null;
  proof: ChangeProof;
}

/**
 * How a service changes its data and announces it (the transactional outbox). Where the store
 * has transactions (SQLite), the change and the outbox row commit together, then the event is
 * published and its row dropped. Elsewhere (MongoDB) the event is stored first, as an intent
 * with a proof; then the change runs; then it is published. A crash at any point loses
 * nothing: the relay later publishes each leftover row whose change happened (committed, or
 * its proof holds) and drops those whose change never did.
 */
@Injectable()
export class EventBus implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventBus.name);
  private readonly outbox: Collection<OutboxDoc>;
  /** Rows this process is still working on: the relay leaves them alone. */
  private readonly inFlight = new Set<string>();
  private relayTimer?: NodeJS.Timeout;
  private relaying = false;
  /**
   * The open batch, set only while its transaction is open: the store then runs no other
   * context's transaction, so an emit that finds it from inside a transaction is the batch's.
   */
  private batchScope?: BatchScope;

  constructor(
    @Inject(BUS_TRANSPORT) private readonly transport: BusTransport,
    @Inject(STORE) private readonly store: Store,
  ) {
    this.outbox = store.collection(outboxCollection);
  }

  /**
   * Runs `change` and announces it with `planned`. A falsy result (false, 0, null) means the
   * change found nothing to do: the event is dropped, as it is when `change` throws.
   */
  async emitWith<T extends EventType, R>(planned: PlannedEvent<T>, change: () => Promise<R>): Promise<R> {
    if (this.store.transaction) return this.emitInTransaction(planned, change, this.store.transaction.bind(this.store));
    const event = envelope(planned);
    const proof = storedProof(planned.proof);
    this.inFlight.add(event.id);
    try {
      await this.outbox.insert({ _id: event.id, event: event as never, created_at: Date.now(), attempts: 0, proof });
    } catch (err) {
      this.inFlight.delete(event.id);
      throw err;
    }
    let result: R;
    try {
      result = await change();
    } catch (err) {
      await this.forget(event.id);
      throw err;
    }
    if (!result) await this.forget(event.id);
    else if (CHECK_PROOFS && !(await this.holds(proof))) {
      await this.forget(event.id);
      throw new Error(`The proof of ${planned.type} does not hold after its change: ${JSON.stringify(planned.proof.match)}`);
    } else if (!(await this.publish(event.id, event as never))) {
      // The change is done: the relay may publish without checking the proof.
      await this.outbox.updateOne({ _id: event.id }, { $set: { committed: true } }).catch(() => undefined);
    }
    return result;
  }

  /** The change and its outbox row in one transaction: both happen or neither does. */
  private async emitInTransaction<T extends EventType, R>(
    planned: PlannedEvent<T>,
    change: () => Promise<R>,
    transaction: NonNullable<Store['transaction']>,
  ): Promise<R> {
    const event = envelope(planned);
    this.inFlight.add(event.id);
    let result: R;
    let batch: BatchScope | undefined;
    try {
      result = await transaction(async () => {
        batch = this.batchScope;
        const changed = await change();
        if (!changed) return changed;
        if (CHECK_PROOFS && !(await this.holds(storedProof(planned.proof)))) {
          throw new Error(`The proof of ${planned.type} does not hold after its change: ${JSON.stringify(planned.proof.match)}`);
        }
        await this.outbox.insert({ _id: event.id, event: event as never, created_at: Date.now(), attempts: 0, committed: true });
        return changed;
      });
    } catch (err) {
      this.inFlight.delete(event.id);
      throw err;
    }
    if (!result) this.inFlight.delete(event.id);
    else if (batch) batch.events.push({ id: event.id, event: event as never }); // published when the batch commits
    else await this.publish(event.id, event as never); // refused: the committed row waits for the relay
    return result;
  }

  /**
   * Runs `work` (any number of `emitWith` calls, the same rules as one request each) as one
   * transaction where the store has them: the changes and their outbox rows commit together,
   * then the events are published in the order they were emitted and their rows dropped in one
   * delete once the bus holds them. Bulk imports use it: one commit per batch instead of one per
   * row. A throw rolls the whole batch back and publishes nothing. Without transactions (MongoDB)
   * `work` runs as is and each event is published as it is emitted.
   */
  async batch<R>(work: () => Promise<R>): Promise<R> {
    if (!this.store.transaction || this.store.inTransaction?.()) return work(); // nested: part of the open one
    const scope: BatchScope = { events: [] };
    let result: R;
    try {
      result = await this.store.transaction(async () => {
        this.batchScope = scope;
        try {
          return await work();
        } finally {
          this.batchScope = undefined;
        }
      });
    } catch (err) {
      for (const { id } of scope.events) this.inFlight.delete(id);
      throw err;
    }
    await this.publishBatch(scope.events);
    return result;
  }

  /** Publishes committed rows in order; a refusal leaves it and the rest to the relay. */
  private async publishBatch(entries: BatchScope['events']): Promise<void> {
    const published: string[] = [];
    const handled: Promise<void>[] = [];
    for (const [i, { id, event }] of entries.entries()) {
      try {
        const receipt = await this.transport.publish(event);
        if (receipt) handled.push(receipt.handled);
        published.push(id);
      } catch (err) {
        for (const left of entries.slice(i)) this.inFlight.delete(left.id);
        this.logger.warn(`Publishing ${event.type} ${id} failed; the relay will retry it and the rest of its batch: ${(err as Error).message}`);
        break;
      }
    }
    if (published.length === 0) return;
    void Promise.all(handled).then(async () => {
      try {
        await this.outbox.deleteMany({ _id: { $in: published } });
      } catch (err) {
        this.logger.warn(`${published.length} outbox rows stay for the relay: ${(err as Error).message}`);
      } finally {
        for (const id of published) this.inFlight.delete(id);
      }
    });
  }

  onApplicationBootstrap(): void {
    void this.relay(0);
    this.relayTimer = setInterval(() => void this.relay(RELAY_GRACE_MS), RELAY_EVERY_MS);
    this.relayTimer.unref();
  }

  onApplicationShutdown(): void {
    if (this.relayTimer) clearInterval(this.relayTimer);
  }

  /** Settles outbox entries older than `graceMs`, oldest first: publishes or drops each. */
  async relay(graceMs: number): Promise<number> {
    if (this.relaying) return 0;
    this.relaying = true;
    let published = 0;
    try {
      const pending = await this.outbox.find(
        { created_at: { $lte: Date.now() - graceMs } },
        { sort: { created_at: 1 }, limit: 500 },
      );
      for (const entry of pending) {
        if (this.inFlight.has(entry._id)) continue;
        if (entry.committed || !entry.proof || (await this.holds(entry.proof))) {
          this.inFlight.add(entry._id);
          if (!(await this.publish(entry._id, entry.event))) break; // the bus is down: next tick
          published++;
        } else {
          await this.outbox.deleteOne({ _id: entry._id });
        }
      }
    } catch (err) {
      this.logger.warn(`Outbox relay paused: ${(err as Error).message}`);
    } finally {
      this.relaying = false;
    }
    return published;
  }

  /** Publishes a stored event; its row goes once the bus holds it. False when the bus refused it. */
  private async publish(id: string, event: OutboxDoc['event']): Promise<boolean> {
    try {
      const receipt = await this.transport.publish(event);
      if (receipt) void receipt.handled.then(() => this.forget(id));
      else await this.forget(id);
      return true;
    } catch (err) {
      this.inFlight.delete(id);
      this.logger.warn(`Publishing ${event.type} ${id} failed; the relay will retry: ${(err as Error).message}`);
      return false;
    }
  }

  /** Drops a row. A failure leaves it to the relay, which publishes it only if its proof holds. */
  private async forget(id: string): Promise<void> {
    try {
      await this.outbox.deleteOne({ _id: id });
    } catch (err) {
      this.logger.warn(`Outbox row ${id} stays for the relay: ${(err as Error).message}`);
    } finally {
      this.inFlight.delete(id);
    }
  }

  private async holds(proof: StoredProof): Promise<boolean> {
    const rows = this.store.collection(defineCollection(proof.collection));
    const found = await rows.count(Object.fromEntries(proof.match));
    return found > 0 === proof.present;
  }
}

function envelope<T extends EventType>(planned: PlannedEvent<T>): EventEnvelope<T> {
  return {
    id: newId(),
    type: planned.type,
    version: EVENT_VERSIONS[planned.type],
    occurredAt: new Date().toISOString(),
    actorId: planned.actorId ?? null,
    key: planned.key,
    payload: planned.payload,
  };
}

function storedProof(proof: ChangeProof): StoredProof {
  return { collection: proof.collection.name, match: Object.entries(proof.match), present: proof.present };
}
