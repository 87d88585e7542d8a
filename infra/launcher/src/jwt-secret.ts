import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded profile makes its signing secret once and keeps it with the data (ARCHITECTURE §5). */
export function embeddedJwtSecret(dataDir: string): string {
  if (dataDir === ':memory:') return randomBytes(32).toString('hex');
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
