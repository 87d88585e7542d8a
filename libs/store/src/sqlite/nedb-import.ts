import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BaseDoc, defineCollection } from '../store.port';
import { SqliteStore } from './sqlite-store';

/** Where a service's NeDB files go once imported. */
export const NEDB_IMPORTED_DIR = 'nedb-imported';

export interface NedbImport {
  collections: number;
  documents: number;
}

/**
 * The live documents of one NeDB data file. The format (NeDB's own, written by earlier releases):
 * one JSON document per line, appended; a later line for the same `_id` replaces the earlier one,
 * `{"$$deleted":true,"_id":...}` removes it, `{"$$indexCreated":...}` / `$$indexRemoved` lines
 * describe indexes and are skipped. Dates are `{"$$date": ms}`, which this adapter reads as dates
 * too. A torn last line (a crash mid-append) is dropped, as NeDB itself did.
 */
export function parseNedbFile(text: string): BaseDoc[] {
  const docs = new Map<string, BaseDoc>();
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch (err) {
      if (i >= lines.length - 2) return; // the torn tail of a crash
      throw new Error(`Line ${i + 1} is not JSON: ${(err as Error).message}`);
    }
    if ('$$indexCreated' in row || '$$indexRemoved' in row) return;
    const id = String(row._id);
    if (row.$$deleted === true) docs.delete(id);
    else docs.set(id, { ...row, _id: id } as BaseDoc);
  });
  return [...docs.values()];
}

/**
 * Imports the NeDB files of one service folder (`<collection>.db`) into the SQLite file `file`,
 * once: only when that file does not exist yet. The import is written to a temporary file that
 * becomes `file` only when complete, then the NeDB files move to `nedb-imported/`. A crash in
 * between leaves either no SQLite file (the import runs again) or a complete one (the NeDB files
 * are then only moved aside). Returns null when there was nothing to import.
 */
export async function importNedbFolder(serviceDir: string, file: string): Promise<NedbImport | null> {
  const files = existsSync(serviceDir) ? readdirSync(serviceDir).filter((f) => f.endsWith('.db')) : [];
  if (files.length === 0) return null;
  let result: NedbImport | null = null;
  if (!existsSync(file)) result = await importInto(serviceDir, files, file);
  const aside = join(serviceDir, NEDB_IMPORTED_DIR);
  mkdirSync(aside, { recursive: true });
  for (const f of files) renameSync(join(serviceDir, f), join(aside, f));
  return result ?? { collections: 0, documents: 0 };
}

async function importInto(serviceDir: string, files: string[], file: string): Promise<NedbImport> {
  const partial = `${file}.importing`;
  for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(leftover, { force: true });
  const store = new SqliteStore({ file: partial });
  await store.open([]);
  let documents = 0;
  try {
    await store.transaction(async () => {
      for (const f of files) {
        const docs = parseNedbFile(readFileSync(join(serviceDir, f), 'utf8'));
        await store.collection(defineCollection(basename(f, '.db'))).insertMany(docs);
        documents += docs.length;
      }
    });
  } finally {
    await store.close(); // the last connection checkpoints the WAL into the file
  }
  renameSync(partial, file);
  return { collections: files.length, documents };
}
