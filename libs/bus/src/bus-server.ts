import { AnyEventEnvelope, eventProblems, EventType, isEventEnvelope } from '@app/contracts';
import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { Collection, DuplicateKeyError } from '@app/store';
import { lastValueFrom, isObservable } from 'rxjs';
import { BusTransport, Subscription } from './bus.port';
import { InboxDoc } from './outbox.collection';

export interface BusServerOptions {
  transport: BusTransport;
  group: string;
  consumer: string;
  /** Handled event ids; absent means no dedupe (broadcast consumers that only forward). */
  inbox?: Collection<InboxDoc>;
  /**
   * How long a handled id is remembered. Redeliveries come within minutes (a dead consumer's
   * lease); past this window the handlers' own idempotent effects are the guard. Default 3 days.
   */
  inboxRetentionMs?: number;
  /**
   * Runs one delivery (the inbox check, every handler, the inbox row) as one unit: `EventBus.atomically`,
   * so on a store with transactions a delivery commits once, the events its handlers emit included.
   * Given, several queued events are handled in one such unit where the transport offers them
   * together (the in-process bus under a bulk import).
   */
  atomically?: <R>(work: () => Promise<R>) => Promise<R>;
  /**
   * True when `atomically` is one transaction of the store (`EventBus.transactional`): the inbox is
   * then read once per delivery, before the unit, and the inbox row inserted at its end settles a
   * race of two deliveries (the loser's unit rolls back). Otherwise the unit checks it again inside.
   */
  transactional?: boolean;
  /** Told of every delivery's outcome and its lag since emission (metrics live in the platform). */
  observe?: (event: AnyEventEnvelope, outcome: DeliveryOutcome, lagSeconds: number) => void;
  /** True for a valid event this service must not act on (one from a deleted member); acknowledged unhandled. */
  ignore?: (event: AnyEventEnvelope) => boolean;
}

/**
 * `rejected`: an unknown version or an invalid payload; `ignored`: one the service's `ignore`
 * refused, or none of its handlers is concerned with (`OnEvent`'s `when`). Both are acknowledged
 * without running a handler.
 */
export type DeliveryOutcome = 'handled' | 'duplicate' | 'failed' | 'rejected' | 'ignored';

const DEFAULT_INBOX_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The @nestjs/microservices strategy that feeds `@OnEvent` handlers from any transport.
 * It validates each envelope and its payload, skips an event id already handled, and
 * acknowledges only after every handler for the event has succeeded.
 */
export class BusServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(BusServer.name);
  private subscription?: Subscription;
  private pruneTimer?: NodeJS.Timeout;

  constructor(private readonly options: BusServerOptions) {
    super();
  }

  async listen(callback: (...optionalParams: unknown[]) => unknown): Promise<void> {
    const types = [...this.messageHandlers.keys()] as EventType[];
    try {
      types.forEach((type) => this.takesRuns(type));
    } catch (err) {
      callback(err); // Nest's listen() rejects with it: the process fails to start
      return;
    }
    if (types.length > 0) {
      this.subscription = await this.options.transport.subscribe({
        group: this.options.group,
        consumer: this.options.consumer,
        types,
        handler: (event) => this.dispatch(event),
        ...(this.options.atomically && { handleBatch: (events) => this.dispatchAll(events) }),
      });
    }
    if (this.options.inbox) {
      this.pruneTimer = setInterval(() => void this.pruneInbox(Date.now()).catch(() => undefined), PRUNE_EVERY_MS);
      this.pruneTimer.unref();
    }
    callback();
  }

  async close(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.subscription?.close();
  }

  /** Forgets handled ids older than the retention window, so the inbox does not grow forever. */
  async pruneInbox(now: number): Promise<number> {
    const retention = this.options.inboxRetentionMs ?? DEFAULT_INBOX_RETENTION_MS;
    return (await this.options.inbox?.deleteMany({ handled_at: { $lt: now - retention } })) ?? 0;
  }

  on(): never {
    throw new Error('BusServer does not emit transport events');
  }

  unwrap<T>(): T {
    return this.options.transport as T;
  }

  /**
   * Several deliveries in one unit of the store: all handled, or a throw and none (each is then
   * delivered again on its own). On a store with transactions the group's inbox is read in one
   * statement before the unit and its rows inserted in one at its end: per event, only its
   * handlers' statements, and for a type whose handlers take runs (`OnEventBatch`) each run of
   * consecutive events of the type goes to them as one array.
   */
  async dispatchAll(events: AnyEventEnvelope[]): Promise<void> {
    const { atomically, inbox, transactional } = this.options;
    if (!atomically) throw new Error('dispatchAll needs the atomically option');
    // A group none of the handlers wants (chat messages at the notifier) costs no inbox read and no transaction.
    if (!events.some((event) => isEventEnvelope(event) && this.concerned(event))) {
      events.forEach((event) => this.admitted(event));
      return;
    }
    const group: Group = { rows: [] };
    if (transactional && inbox) {
      const ids = events.map((e) => e.id);
      group.handled = new Set((await inbox.find({ _id: { $in: ids } }, { projection: { _id: 1 } })).map((row) => row._id));
    }
    await atomically(async () => {
      let run: AnyEventEnvelope[] = [];
      for (const event of events) {
        if (run.length > 0 && run[0].type !== event.type) run = await this.handleRun(run, group);
        if (group.handled && this.takesRuns(event.type)) {
          if (this.admitted(event)) this.joinRun(run, event, group);
        } else await this.dispatch(event, group);
      }
      if (run.length > 0) await this.handleRun(run, group);
      // A DuplicateKeyError here: another delivery of one of them committed first; the group
      // rolls back and its events come one by one.
      if (group.rows.length > 0) await inbox?.insertMany(group.rows);
    });
  }

  /** Runs the handlers for one delivery; throws to leave it unacknowledged. `group`: part of `dispatchAll`'s unit. */
  async dispatch(event: AnyEventEnvelope, group?: Group): Promise<void> {
    if (!this.admitted(event)) return;
    try {
      const outcome = await this.handle(event, group);
      this.options.observe?.(event, outcome, lagOf(event));
    } catch (err) {
      this.options.observe?.(event, 'failed', lagOf(event));
      throw err;
    }
  }

  /** False for an event no handler may see: malformed, invalid, of no handler's concern, or ignored (each logged and observed). */
  private admitted(event: AnyEventEnvelope): boolean {
    if (!isEventEnvelope(event)) {
      this.logger.error(`Dropped a malformed event on ${this.options.group}`);
      return false;
    }
    // Before the payload is checked: an event none of the handlers wants (a one-to-one message for
    // the mention notifier) is acknowledged without paying for its validation.
    if (!this.concerned(event)) {
      this.logger.debug(`Ignored ${event.type} ${event.id} on ${this.options.group}`);
      this.options.observe?.(event, 'ignored', lagOf(event));
      return false;
    }
    const problems = eventProblems(event);
    if (problems.length > 0) {
      // No transport keeps a dead-letter queue: retrying cannot fix the payload, so it is
      // acknowledged, and this log and the `rejected` outcome (a metric) are its only trace.
      this.logger.error(
        `Rejected ${event.type} v${event.version} ${event.id} on ${this.options.group}: ${problems.join('; ')}`,
      );
      this.options.observe?.(event, 'rejected', lagOf(event));
      return false;
    }
    if (this.options.ignore?.(event)) {
      this.logger.debug(`Ignored ${event.type} ${event.id} on ${this.options.group}`);
      this.options.observe?.(event, 'ignored', lagOf(event));
      return false;
    }
    return true;
  }

  /** Adds an admitted event to the run, unless the group's inbox (or the run itself) already holds it. */
  private joinRun(run: AnyEventEnvelope[], event: AnyEventEnvelope, group: Group): void {
    if (group.handled?.has(event.id)) {
      this.options.observe?.(event, 'duplicate', lagOf(event));
      return;
    }
    group.handled?.add(event.id);
    run.push(event);
  }

  /** A run's handlers in the group's unit, and its inbox rows queued for the group's end. Returns a new, empty run. */
  private async handleRun(run: AnyEventEnvelope[], group: Group): Promise<AnyEventEnvelope[]> {
    try {
      await this.callHandlers(run[0].type, run);
    } catch (err) {
      run.forEach((event) => this.options.observe?.(event, 'failed', lagOf(event)));
      throw err;
    }
    for (const event of run) {
      group.rows.push({ _id: event.id, type: event.type, handled_at: Date.now() });
      this.options.observe?.(event, 'handled', lagOf(event));
    }
    return [];
  }

  /**
   * True when the type's handlers take runs (`OnEventBatch`). A type whose handlers disagree is
   * refused at start: one call cannot feed both an event and an array.
   */
  private takesRuns(type: string): boolean {
    let runs: boolean | undefined;
    for (let handler = this.messageHandlers.get(type); handler; handler = handler.next as MessageHandler | undefined) {
      const batch = handler.extras?.batch === true;
      if (runs !== undefined && runs !== batch) throw new Error(`The handlers of ${type} on ${this.options.group} mix OnEvent and OnEventBatch`);
      runs = batch;
    }
    return runs === true;
  }

  /** Every handler of the type. Nest chains them: the first runs the rest itself (its listeners' forkJoin of `next`). */
  private async callHandlers(type: string, input: AnyEventEnvelope | AnyEventEnvelope[]): Promise<void> {
    const handler = this.messageHandlers.get(type);
    if (!handler) return;
    const result = await handler(input);
    if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
  }

  /**
   * False when every handler of the event's type says (`OnEvent`'s `when`) that the event is not its
   * business. Asked before the payload is validated: a `when` that throws on a malformed payload
   * counts as concerned, so the validation then rejects it.
   */
  private concerned(event: AnyEventEnvelope): boolean {
    for (let handler = this.messageHandlers.get(event.type); handler; handler = handler.next as MessageHandler | undefined) {
      const when = handler.extras?.when as ((e: AnyEventEnvelope) => boolean) | undefined;
      if (!when) return true;
      try {
        if (when(event)) return true;
      } catch {
        return true;
      }
    }
    return false;
  }

  /** `group`: part of a group already in one unit (`dispatchAll`), whose inbox it read beforehand on a store with transactions. */
  private async handle(event: AnyEventEnvelope, group?: Group): Promise<DeliveryOutcome> {
    const { atomically, inbox, transactional } = this.options;
    if (!atomically) return this.run(event, true);
    // A repeat costs no transaction.
    if (group?.handled) {
      if (group.handled.has(event.id)) return 'duplicate';
    } else if (inbox && (await inbox.findById(event.id))) return 'duplicate';
    if (!transactional) return atomically(() => this.run(event, true));
    // A group's unit: its inbox rows go in at its end, and one found taken fails the group (its events then come one by one).
    if (group) return this.run(event, false, group);
    try {
      return await atomically(() => this.run(event, false));
    } catch (err) {
      if (err instanceof HandledMeanwhile) return 'duplicate';
      throw err;
    }
  }

  /**
   * The handlers and the inbox row. `check`: look the id up first and upsert the row (no
   * transaction round the unit, or the caller has not looked); otherwise the row is inserted, and
   * finding it taken (a concurrent delivery committed first) throws `HandledMeanwhile`, rolling
   * this unit back.
   */
  private async run(event: AnyEventEnvelope, check: boolean, group?: Group): Promise<DeliveryOutcome> {
    const inbox = this.options.inbox;
    if (check && inbox && (await inbox.findById(event.id))) return 'duplicate';
    await this.callHandlers(event.type, this.takesRuns(event.type) ? [event] : event);
    if (!inbox) return 'handled';
    if (check) {
      await inbox.updateOne({ _id: event.id }, { $set: { type: event.type, handled_at: Date.now() } }, { upsert: true });
      return 'handled';
    }
    const row = { _id: event.id, type: event.type, handled_at: Date.now() };
    if (group) {
      group.rows.push(row);
      group.handled?.add(event.id); // the same event twice in one group runs once
      return 'handled';
    }
    try {
      await inbox.insert(row);
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new HandledMeanwhile(event.id);
      throw err;
    }
    return 'handled';
  }
}

/** A group of deliveries in one unit (`dispatchAll`): the ids already handled, read before it, and the inbox rows it inserts at its end. */
interface Group {
  handled?: Set<string>;
  rows: InboxDoc[];
}

/** Another delivery of the same event committed its inbox row first: this one's unit rolls back. */
class HandledMeanwhile extends Error {
  constructor(id: string) {
    super(`Event ${id} was handled by another delivery meanwhile`);
  }
}

/** Seconds since the event was emitted (observed with each outcome). */
function lagOf(event: AnyEventEnvelope): number {
  return Math.max(0, (Date.now() - Date.parse(event.occurredAt)) / 1000);
}
