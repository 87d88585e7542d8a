import { EVENT_VERSIONS, EventEnvelope, EventPayloads, EventType } from '@app/contracts';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { BaseDoc, Collection, CollectionDef, defineCollection, newId, ScopedContext, Store, STORE } from '@app/store';
import { BusTransport, PublishReceipt } from './bus.port';
import { OutboxDoc, outboxCollection, ProofValue, StoredProof } from './outbox.collection';
import { BUS_TRANSPORT } from './bus.tokens';

const RELAY_EVERY_MS = 1000;
/** Under test every proof is checked right after its change, so a wrong one fails its service's tests. */
const CHECK_PROOFS = process.env.NODE_ENV === 'test';
/** An entry younger than this may still be in its emitter's hands (another replica's). */
const RELAY_GRACE_MS = 2000;
/**
 * How long published rows wait to be dropped together: the next transaction of this service drops
 * them in its own commit, or a timer does, in one commit for all (instead of one commit per event).
 */
const DROP_AFTER_MS = 100;
/**
 * How long an `inForce` emitter waits at most for the consumers (issue 46 case 3): past it the
 * request returns anyway and a warning says so (a group far behind, e.g. under a bulk import).
 */
const IN_FORCE_TIMEOUT_MS = Number(process.env.BUS_IN_FORCE_TIMEOUT_MS) || 5_000;

/** Events stored inside an `atomically` unit, published once it commits. */
interface Unit {
  pending: { id: string; event: OutboxDoc['event'] }[];
  /** Their outbox rows, inserted together at the end of the unit (in its commit): one statement for all. */
  rows: OutboxDoc[];
}

/** Which row shows that an event's change happened: see `StoredProof`. */
export interface ChangeProof {
  collection: CollectionDef<BaseDoc>;
  /** Plain equality on stored fields; dotted paths reach into nested objects. */
  match: Record<string, ProofValue>;
  /** true: the change leaves such a row (insert, update); false: it removes it (delete). */
  present: boolean;
}

/** One change of `EventBus.emitOneOfEachWith`: its candidate events, the change, and which one its outcome announced. */
export interface OneOfChange<R> {
  planned: PlannedEvent<EventType>[];
  /** Runs in the transaction; what settles once it committed, or undefined when it could not write that way. */
  change: (outbox: Collection<OutboxDoc>, rows: OutboxDoc[]) => Promise<{ outcome: Promise<R> } | undefined>;
  /** The event the outcome announced (its index in `planned`) with the payload its row holds, or null for none. */
  chosen: (result: R) => { index: number; payload: EventPayloads[EventType] } | null;
}

export interface PlannedEvent<T extends EventType> {
  type: T;
  payload: EventPayloads[T];
  /** Aggregate id: partition key, order holds per key. */
  key: string;
  actorId?: string | null;
  proof: ChangeProof;
  /**
   * The change must be in force everywhere once the request returns (a block, a suspension, a
   * role): after publishing, the emitter waits until every consumer group that takes the event
   * has handled it (bounded by IN_FORCE_TIMEOUT_MS; docs/decisions/contracts.md). Ignored inside
   * an `atomically` unit (a bus delivery), whose events go out after it commits.
   */
  inForce?: boolean;
}

/**
 * How a service changes its data and announces it (the transactional outbox). Where the store
 * has transactions (SQLite, PostgreSQL), the change and the outbox row commit together, then the
 * event is published and its row dropped with a later commit (the next transaction's, or a
 * batch's). Both writes go with the commit (`writeWithCommit`): on PostgreSQL in the COMMIT's
 * round trip, not one each before it.
 * `atomically` makes a unit of several changes (a bus delivery): one commit, events published
 * after it. Elsewhere (MongoDB) the event is stored first, as an intent
 * with a proof; then the change runs; then it is published. A crash at any point loses
 * nothing: the relay later publishes each leftover row whose change happened (committed, or
 * its proof holds) and drops those whose change never did.
 */
@Injectable()
export class EventBus implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(EventBus.name);
  private readonly outbox: Collection<OutboxDoc>;
  /** Rows this process is still working on: the relay leaves them alone. */
  private readonly inFlight = new Set<string>();
  private relayTimer?: NodeJS.Timeout;
  private relaying = false;
  /** Published rows (transactional engines) waiting to be dropped in one go; still in `inFlight`. */
  private readonly published = new Set<string>();
  private dropTimer?: NodeJS.Timeout;
  private readonly units = new ScopedContext<Unit>();

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
    } else if (!(await this.publish(event.id, event as never, planned.inForce))) {
      // The change is done: the relay may publish without checking the proof.
      await this.outbox.updateOne({ _id: event.id }, { $set: { committed: true } }).catch(() => undefined);
    }
    return result;
  }

  /** Whether the store has transactions: `emitWith`'s change and outbox row commit together, and `atomically` is one commit. */
  get transactional(): boolean {
    return Boolean(this.store.transaction);
  }

  /**
   * `emitWith` for several events of one change (a fan-out's notifications inserted together):
   * on a store with transactions their outbox rows go in one insert with the change, and they
   * are published after its commit (or the unit's), in order. A falsy result drops them all.
   * Elsewhere each event is stored first as its intent, as `emitWith` does.
   */
  async emitAllWith<R>(planned: PlannedEvent<EventType>[], change: () => Promise<R>): Promise<R> {
    const transaction = this.store.transaction?.bind(this.store);
    if (!transaction) return this.emitIntentsWith(planned, change);
    const events = planned.map((p) => envelope(p));
    const unit = this.units.get();
    const work = async () => {
      const changed = await change();
      if (!changed) return changed;
      if (CHECK_PROOFS) {
        for (const p of planned) {
          if (!(await this.holds(storedProof(p.proof)))) {
            throw new Error(`The proof of ${p.type} does not hold after its change: ${JSON.stringify(p.proof.match)}`);
          }
        }
      }
      // Inside a unit the rows go with the unit's other outbox rows, at its end.
      if (!unit) await this.outbox.writeWithCommit({ insert: events.map((event) => committedRow(event)) });
      return changed;
    };
    for (const event of events) this.inFlight.add(event.id);
    let result: R;
    try {
      result = unit ? await transaction(work) : await this.dropping(transaction, work);
    } catch (err) {
      for (const event of events) this.inFlight.delete(event.id);
      throw err;
    }
    if (!result) for (const event of events) this.inFlight.delete(event.id);
    else if (unit) {
      for (const event of events) {
        unit.rows.push(committedRow(event));
        unit.pending.push({ id: event.id, event: event as never });
      }
    }
    else for (const event of events) await this.publish(event.id, event as never);
    return result;
  }

  /**
   * Changes each of whose outcome decides which of its `planned` events it announces (a like
   * toggle: review.liked or review.unliked), and which write their outbox rows themselves, each only
   * for its own outcome, with the commit (`Collection.flipWithCommit`: the whole transaction in one
   * round trip). The changes run in order in one transaction that also drops the published rows:
   * their writes go with its one COMMIT. Each gets the outbox and its candidates' rows, and returns
   * what settles once the transaction committed, or undefined when it could not write that way
   * (nothing is then announced for it: the caller changes and emits in turn); its `chosen` names the
   * event its outcome announced, with the payload as its row holds it, or null for none. All or
   * nothing: a change that throws rolls every one back, and none is announced. On a store with
   * transactions, outside an `atomically` unit.
   */
  async emitOneOfEachWith<R>(changes: OneOfChange<R>[]): Promise<({ result: R } | undefined)[]> {
    const transaction = this.store.transaction?.bind(this.store);
    if (!transaction || this.units.get()) throw new Error('emitOneOfEachWith needs a store with transactions, outside a unit');
    const events = changes.map(({ planned }) => planned.map((p) => envelope(p)));
    const all = events.flat();
    for (const event of all) this.inFlight.add(event.id);
    let settled: ({ result: R } | undefined)[];
    try {
      const queued = await this.dropping(transaction, async () => {
        const outcomes: ({ outcome: Promise<R> } | undefined)[] = [];
        for (const [i, { change }] of changes.entries()) outcomes.push(await change(this.outbox, events[i].map((event) => committedRow(event))));
        return outcomes;
      });
      settled = await Promise.all(queued.map(async (q) => q && { result: await q.outcome }));
    } catch (err) {
      for (const event of all) this.inFlight.delete(event.id);
      throw err;
    }
    const announced = changes.flatMap(({ chosen }, i) => {
      const done = settled[i];
      const pick = done ? chosen(done.result) : null;
      events[i].forEach((event, k) => k !== pick?.index && this.inFlight.delete(event.id)); // never written
      return pick ? [{ ...events[i][pick.index], payload: pick.payload }] : [];
    });
    // Refused: a committed row waits for the relay.
    await Promise.all(announced.map((event) => this.publish(event.id, event as never)));
    return settled;
  }

  /** Without transactions: every intent stored before the change, as `emitWith` does for one. */
  private async emitIntentsWith<R>(planned: PlannedEvent<EventType>[], change: () => Promise<R>): Promise<R> {
    const events = planned.map((p) => ({ event: envelope(p), proof: storedProof(p.proof), type: p.type, match: p.proof.match }));
    for (const { event } of events) this.inFlight.add(event.id);
    try {
      await this.outbox.insertMany(events.map(({ event, proof }) => ({ _id: event.id, event: event as never, created_at: Date.now(), attempts: 0, proof })));
    } catch (err) {
      for (const { event } of events) this.inFlight.delete(event.id);
      throw err;
    }
    let result: R;
    try {
      result = await change();
    } catch (err) {
      for (const { event } of events) await this.forget(event.id);
      throw err;
    }
    if (!result) {
      for (const { event } of events) await this.forget(event.id);
      return result;
    }
    for (const { event, proof, type, match } of events) {
      if (CHECK_PROOFS && !(await this.holds(proof))) {
        await this.forget(event.id);
        throw new Error(`The proof of ${type} does not hold after its change: ${JSON.stringify(match)}`);
      }
      if (!(await this.publish(event.id, event as never))) {
        await this.outbox.updateOne({ _id: event.id }, { $set: { committed: true } }).catch(() => undefined);
      }
    }
    return result;
  }

  /**
   * Runs `work` as one unit: on a store with transactions, every write inside it (the events'
   * outbox rows included, in one insert at its end) commits once, and the events emitted inside
   * are published after that commit (never before: a rollback must leave no event out). The BusServer runs each delivery's
   * handlers and its inbox row this way. Elsewhere `work` just runs, and each emitWith publishes
   * as it goes (intent and proof).
   */
  async atomically<R>(work: () => Promise<R>): Promise<R> {
    const transaction = this.store.transaction?.bind(this.store);
    if (!transaction || this.units.get()) return work();
    const unit: Unit = { pending: [], rows: [] };
    let result: R;
    try {
      result = await this.units.run(unit, () =>
        this.dropping(transaction, async () => {
          const done = await work();
          if (unit.rows.length > 0) await this.outbox.writeWithCommit({ insert: unit.rows });
          return done;
        }),
      );
    } catch (err) {
      for (const { id } of unit.pending) this.inFlight.delete(id);
      throw err;
    }
    if (this.transport.publishAll && unit.pending.length > 1) await this.publishAll(unit.pending);
    else for (const { id, event } of unit.pending) await this.publish(id, event); // refused: the relay sends it
    return result;
  }

  /** A committed unit's events in one round trip (a durable bus): refused, the relay sends them all again (inboxes drop repeats). */
  private async publishAll(pending: Unit['pending']): Promise<void> {
    try {
      await this.transport.publishAll!(pending.map(({ event }) => event));
    } catch (err) {
      for (const { id } of pending) this.inFlight.delete(id);
      this.logger.warn(`Publishing ${pending.length} events failed; the relay will retry: ${(err as Error).message}`);
      return;
    }
    for (const { id } of pending) await this.dropLater(id);
  }

  /** The change and its outbox row in one transaction: both happen or neither does. */
  private async emitInTransaction<T extends EventType, R>(
    planned: PlannedEvent<T>,
    change: () => Promise<R>,
    transaction: NonNullable<Store['transaction']>,
  ): Promise<R> {
    const event = envelope(planned);
    const unit = this.units.get();
    const holds = () => !CHECK_PROOFS || this.holds(storedProof(planned.proof));
    const checkProof = async () => {
      if (!(await holds())) throw new Error(`The proof of ${planned.type} does not hold after its change: ${JSON.stringify(planned.proof.match)}`);
    };
    /** Under test, a proof that did not hold inside the transaction: the change may be left to the commit, so it is checked after. */
    let proofAfterCommit = false;
    const work = async () => {
      const changed = await change();
      if (!changed) return changed;
      // Inside a unit the row goes with the unit's other outbox rows, at its end.
      if (unit) await checkProof();
      else {
        // Checked inside first: after the commit a racing request may already have undone the change.
        proofAfterCommit = !(await holds());
        await this.outbox.writeWithCommit({ insert: [committedRow(event)] });
      }
      return changed;
    };
    this.inFlight.add(event.id);
    let result: R;
    try {
      // Inside a unit this joins its transaction, which drops the published rows itself.
      result = unit ? await transaction(work) : await this.dropping(transaction, work);
    } catch (err) {
      this.inFlight.delete(event.id);
      throw err;
    }
    if (!result) this.inFlight.delete(event.id);
    else if (unit) {
      unit.rows.push(committedRow(event));
      unit.pending.push({ id: event.id, event: event as never }); // published when the unit commits
    }
    else {
      // A change left to the commit (`writeWithCommit`) is there only now.
      if (proofAfterCommit) {
        await checkProof().catch(async (err: unknown) => {
          await this.forget(event.id);
          throw err;
        });
      }
      await this.publish(event.id, event as never, planned.inForce); // refused: the committed row waits for the relay
    }
    return result;
  }

  /** Runs `work` in a transaction that also drops the rows published since the last drop: one commit for both. */
  private async dropping<R>(transaction: NonNullable<Store['transaction']>, work: () => Promise<R>): Promise<R> {
    const ids = [...this.published];
    for (const id of ids) this.published.delete(id);
    try {
      const result = await transaction(async () => {
        const done = await work();
        if (ids.length > 0) await this.outbox.writeWithCommit({ remove: ids });
        return done;
      });
      for (const id of ids) this.inFlight.delete(id);
      return result;
    } catch (err) {
      for (const id of ids) this.published.add(id); // rolled back: the next drop takes them
      if (ids.length > 0) this.scheduleDrop();
      throw err;
    }
  }

  onApplicationBootstrap(): void {
    void this.relay(0);
    this.relayTimer = setInterval(() => void this.relay(RELAY_GRACE_MS), RELAY_EVERY_MS);
    this.relayTimer.unref();
  }

  /** Before any store closes (onApplicationShutdown): the rows already published go now. */
  async onModuleDestroy(): Promise<void> {
    await this.dropPublished();
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

  /**
   * Publishes a stored event; its row goes once the bus holds it. False when the bus refused it.
   * `inForce`: returns once every consumer group took it (see `PlannedEvent.inForce`).
   */
  private async publish(id: string, event: OutboxDoc['event'], inForce = false): Promise<boolean> {
    let receipt: PublishReceipt | void;
    try {
      receipt = await this.transport.publish(event);
      const done = () => (this.store.transaction ? this.dropLater(id) : this.forget(id));
      if (receipt) void receipt.handled.then(done);
      else await done();
    } catch (err) {
      this.inFlight.delete(id);
      this.logger.warn(`Publishing ${event.type} ${id} failed; the relay will retry: ${(err as Error).message}`);
      return false;
    }
    if (inForce) await this.untilHandled(event, receipt);
    return true;
  }

  private async untilHandled(event: OutboxDoc['event'], receipt: PublishReceipt | void): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), IN_FORCE_TIMEOUT_MS)));
    const handled = receipt
      ? receipt.handled.then(() => true)
      : (this.transport.untilHandled?.(event, IN_FORCE_TIMEOUT_MS) ?? Promise.resolve(true));
    const inTime = await Promise.race([handled, late]).finally(() => clearTimeout(timer));
    if (!inTime) this.logger.warn(`${event.type} ${event.id}: not every consumer had handled it after ${IN_FORCE_TIMEOUT_MS} ms; replying anyway`);
  }

  /**
   * Resolves once the events published so far were handled by each group that takes them (the
   * in-process bus); at once on a durable bus, which holds what it took. A bulk import waits on it
   * so the in-process bus's queues do not grow faster than its consumers empty them.
   */
  async handledSoFar(): Promise<void> {
    await this.transport.handledSoFar?.();
  }

  /** Queues a published row to be dropped with others (it stays in `inFlight`: the relay leaves it alone). */
  private async dropLater(id: string): Promise<void> {
    this.published.add(id);
    this.scheduleDrop();
  }

  private scheduleDrop(): void {
    if (this.dropTimer) return;
    this.dropTimer = setTimeout(() => void this.dropPublished(), DROP_AFTER_MS);
    this.dropTimer.unref();
  }

  /**
   * Drops the queued rows in one commit. A crash before it leaves them to the relay, which
   * publishes them again: consumers' inboxes drop the repeats.
   */
  async dropPublished(): Promise<void> {
    if (this.dropTimer) clearTimeout(this.dropTimer);
    this.dropTimer = undefined;
    const ids = [...this.published];
    if (ids.length === 0) return;
    for (const id of ids) this.published.delete(id);
    try {
      await this.outbox.deleteMany({ _id: { $in: ids } });
      ids.forEach((id) => this.inFlight.delete(id));
    } catch (err) {
      ids.forEach((id) => this.published.add(id)); // the next transaction or drop takes them
      this.logger.warn(`${ids.length} published outbox rows stay for the next drop: ${(err as Error).message}`);
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

/** The outbox row of an event whose change commits with it (no proof needed). */
function committedRow(event: EventEnvelope<EventType>): OutboxDoc {
  return { _id: event.id, event: event as never, created_at: Date.now(), attempts: 0, committed: true };
}

function storedProof(proof: ChangeProof): StoredProof {
  return { collection: proof.collection.name, match: Object.entries(proof.match), present: proof.present };
}
