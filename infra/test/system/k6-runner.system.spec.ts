import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { formatSummary, runK6Script } from '../../bench/src/k6/runner';

/**
 * Issue 23 §5: the k6 runner executes a k6 scenario's own script (setup, VUs looping its
 * default function) against a started stack, and k6's checks pass.
 */
describe('the k6 runner', () => {
  let stack: EmbeddedStack;

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', BCRYPT_ROUNDS: '4' } });
  });

  afterAll(() => stack.close());

  it('runs the browse scenario and every check passes', async () => {
    const summary = await runK6Script('infra/k6/browse.ts', { env: { BASE_URL: stack.url, SEED_USERS: '4' }, vus: 2, seconds: 3 });
    expect(summary.skipped).toBeUndefined();
    expect(summary.iterations).toBeGreaterThan(0);
    expect(summary.requests.count).toBeGreaterThan(summary.iterations);
    expect(summary.requests.failed).toBe(0);
    expect(summary.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['setup: user signed in', 'products 200', 'search 200', 'profile 200']));
    expect(summary.checks.filter((c) => c.fails > 0)).toEqual([]);
    expect(summary.thresholds.find((t) => t.metric === 'checks')).toEqual({ metric: 'checks', rule: 'rate>0.99', ok: true });
    expect(formatSummary(summary)).toMatch(/http_req_duration\.+: avg=[\d.]+ms p\(95\)=[\d.]+ms p\(99\)=[\d.]+ms/);
  });

  it('says a scenario needing k6/ws is not run rather than failing it silently', async () => {
    const summary = await runK6Script('infra/k6/chat.ts', { env: { BASE_URL: stack.url }, vus: 1, seconds: 1 });
    expect(summary.skipped).toBe('k6/ws is not emulated by the k6 runner');
    expect(formatSummary(summary)).toContain('not run (k6/ws is not emulated by the k6 runner)');
  });
});
