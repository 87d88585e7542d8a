import { HttpException, Type } from '@nestjs/common';
import { FieldError } from '@app/contracts';
import { EventBus } from '@app/bus';
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
 * A service's bulk import (docs/decisions/import.md): each row is validated by the DTO of the
 * route that makes the same thing (the same pipe as a request) and then goes through the same
 * service call, rows in batches of `IMPORT_BATCH` each committed as one transaction with their
 * events (`EventBus.atomically`). A row the rules refuse is reported with the reply its request would
 * have had, and the batch goes on; any other error rolls its batch back and stops the import.
 */
export async function importRows<D extends object, R>(
  bus: EventBus,
  dto: Type<D>,
  rows: readonly unknown[],
  apply: (row: D, index: number) => Promise<R>,
): Promise<ImportReport<R>> {
  const imported: (R | null)[] = new Array<R | null>(rows.length).fill(null);
  const rejected: ImportRejection[] = [];
  const refuse = (index: number, err: unknown) => {
    if (!(err instanceof HttpException)) throw err;
    const body = err.getResponse();
    const { message, errors } = typeof body === 'string' ? { message: body, errors: undefined } : (body as { message: string; errors?: FieldError[] });
    rejected.push({ index, status: err.getStatus(), message: String(message), ...(errors && { errors }) });
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
    await bus.atomically(async () => {
      for (const { index, row } of valid) {
        try {
          imported[index] = await apply(row, index);
        } catch (err) {
          refuse(index, err);
        }
      }
    });
    [beforeLast, last] = [last, bus.handledSoFar()];
  }
  rejected.sort((a, b) => a.index - b.index);
  return { imported, rejected };
}
