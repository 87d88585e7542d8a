import { resolve } from 'node:path';
import { migrateToPostgres } from './postgres-migration';
import { option } from './command-option';

/**
 * `npm run migrate:postgres -- --data-dir .data [--postgres-url postgres://...]`: the embedded
 * data folder into PostgreSQL (POSTGRES_URL by default). Exit 0 when every count matches, 1 when
 * one differs or the copy failed, 2 on a usage error.
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dataDir = resolve(option(argv, 'data-dir') ?? process.env.DATA_DIR ?? '.data');
  const postgresUrl = option(argv, 'postgres-url') ?? process.env.POSTGRES_URL;
  if (!postgresUrl) {
    process.stderr.write('migrate:postgres: set POSTGRES_URL or pass --postgres-url postgres://user:password@host:5432/database\n');
    process.exit(2);
  }
  const { mismatched } = await migrateToPostgres({ dataDir, postgresUrl });
  process.exit(mismatched.length === 0 ? 0 : 1);
}

main().catch((err: Error) => {
  process.stderr.write(`migrate:postgres: ${err.message}\n`);
  process.exit(1);
});
