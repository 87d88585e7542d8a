import { postgresServerAvailable } from './postgres-server';

/**
 * `describe` for a suite that starts its own PostgreSQL. Locally missing binaries skip the suite
 * with a reason; under CI=true the suite runs and fails, because a skip would hide a regression.
 */
export function describeWithPostgres(suite: string): jest.Describe {
  if (postgresServerAvailable() || process.env.CI === 'true') return describe;
  process.stderr.write(`${suite}: PostgreSQL binaries not found, skipping (install postgresql)\n`);
  return describe.skip;
}
