import { HttpException, Type } from '@nestjs/common';
import { FieldError } from '@app/contracts';
import { EventBus } from '@app/bus';
import { DuplicateKeyError } from '@app/store';
import { createValidationPipe } from '../http/validation';

/** Rows per transaction: large enough that commits stop mattering, small enough to bound a rollback and the events held back. */
export const IMPORT_BATCH = 500;

/** One row the import refused, with the status and message the same request would have met. */
export interface ImportRejection {
  index: number;
  status: number;
  message: string;
  errors?: FieldError[];
}

/** `imported[i]` is row i's result, or null when row i is in `rejected`. */
export interface ImportReport<R> {
  imported: (R | null)[];
  rejected: ImportRejection[];
}

const pipe = createValidationPipe();

/**
 * Thrown by a kind's `batch` when the batch met a change it cannot answer for as the row-by-row
 * path would (a concurrent writer's row, a block that landed meanwhile): the batch's unit rolls
 * back and its rows go through `row` one by one.
 */
export class BatchConflict extends Error {
  constructor(reason: string) {
    super(`The batch goes row by row: ${reason}`);
    this.name = 'BatchConflict';
  }
}

/** One row's outcome in a set-based batch: its result, or the HttpException its request would have met. */
export type BatchOutcome<R> = R | HttpException;

/** How a kind's rows are applied: the route's service call row by row, and, where the kind has one, a set-based batch. */
export interface RowImport<D, R> {
  row: (row: D, index: number) => Promise<R>;
  /**
   * The valid rows of a batch at once, in order: a handful of statements for the batch rather
   * than a handful per row, with the same data, events and refusals as `row` over the same rows
   * in order. Throwing `BatchConflict` or `DuplicateKeyError` (another writer got there first)
   * rolls the batch back and sends it row by row. Used where the store has transactions only:
   * elsewhere a half-applied batch could not be taken back.
   */
  batch?: (rows: D[]) => Promise<BatchOutcome<R>[]>;
}

/**
 * A service's bulk import (docs/decisions/import.md): each row is validated by the DTO of the
 * route that makes the same thing (the same pipe as a request) and then goes through the same
 * rules as the service call, rows in batches of `IMPORT_BATCH` each committed as one transaction
 * with their events (`EventBus.atomically`), set-based where the kind has a `batch`. A row the rules
 * refuse is reported with the reply its request would have had, and the batch goes on; any other
 * error rolls its batch back and stops the import.
 */
export async function importRows<D extends object, R>(
  bus: EventBus,
  dto: Type<D>,
  rows: readonly unknown[],
  apply: ((row: D, index: number) => Promise<R>) | RowImport<D, R>,
): Promise<ImportReport<R>> {
  const { row: applyRow, batch: applyBatch } = typeof apply === 'function' ? { row: apply, batch: undefined } : apply;
  const imported: (R | null)[] = new Array<R | null>(rows.length).fill(null);
  const rejected: ImportRejection[] = [];
  const refuse = (index: number, err: unknown) => {
    if (!(err instanceof HttpException)) throw err;
    const body = err.getResponse();
    const { message, errors } = typeof body === 'string' ? { message: body, errors: undefined } : (body as { message: string; errors?: FieldError[] });
    rejected.push({ index, status: err.getStatus(), message: String(message), ...(errors && { errors }) });
  };
  const rowByRow = (valid: { index: number; row: D }[]) =>
    bus.atomically(async () => {
      for (const { index, row } of valid) {
        try {
          imported[index] = await applyRow(row, index);
        } catch (err) {
          refuse(index, err);
        }
      }
    });
  // Outcomes are taken only once the batch committed: a rolled-back batch leaves no trace in the report.
  const setBased = async (valid: { index: number; row: D }[], batch: NonNullable<typeof applyBatch>): Promise<boolean> => {
    let outcomes: BatchOutcome<R>[];
    try {
      outcomes = await bus.atomically(() => batch(valid.map((v) => v.row)));
    } catch (err) {
      if (err instanceof BatchConflict || err instanceof DuplicateKeyError) return false;
      throw err;
    }
    valid.forEach(({ index }, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof HttpException) refuse(index, outcome);
      else imported[index] = outcome;
    });
    return true;
  };
  // Each batch waits until the events of the batch two before it were handled: consumers work
  // while the next batch is written, and the bus's queue holds at most two batches' events.
  let beforeLast: Promise<void> = Promise.resolve();
  let last: Promise<void> = Promise.resolve();
  for (let from = 0; from < rows.length; from += IMPORT_BATCH) {
    await beforeLast;
    const valid: { index: number; row: D }[] = [];
    for (let index = from; index < Math.min(rows.length, from + IMPORT_BATCH); index++) {
      try {
        valid.push({ index, row: (await pipe.transform(rows[index], { type: 'body', metatype: dto })) as D });
      } catch (err) {
        refuse(index, err);
      }
    }
    if (!(applyBatch && bus.transactional && valid.length > 0 && (await setBased(valid, applyBatch)))) await rowByRow(valid);
    [beforeLast, last] = [last, bus.handledSoFar()];
  }
  rejected.sort((a, b) => a.index - b.index);
  return { imported, rejected };
}
