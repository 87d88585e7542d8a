import { redisServerAvailable } from './redis-server';

/**
 * `describe` for a suite that starts its own redis-server. Locally a missing binary skips the
 * suite with a reason; under CI=true the suite runs and fails, because a skip would hide a
 * regression (ARCHITECTURE §8).
 */
export function describeWithRedis(suite: string): jest.Describe {
  if (redisServerAvailable() || process.env.CI === 'true') return describe;
  process.stderr.write(`${suite}: redis-server not found, skipping (install redis-server)\n`);
  return describe.skip;
}
