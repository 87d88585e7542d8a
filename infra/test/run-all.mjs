#!/usr/bin/env node
// `npm test`: every suite of the repository, one summary. Under CI=true a skipped test fails the run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ci = process.env.CI === 'true';
mkdirSync('test-output', { recursive: true });

function run(cmd, args, env = {}) {
  process.stdout.write(`\n$ ${cmd} ${args.join(' ')}\n`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;

// The browser tests drive the built SPA, so build it first.
if (existsSync('web/vite.config.ts')) broken ||= run('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']) !== 0;

// Lint, module boundaries included: the boundary rule reads Nx's project graph, computed first.
broken ||= run('npm', ['run', 'lint', '--silent']) !== 0;

// The k6 scenarios cannot run here (no k6 binary): they are type-checked against @types/k6.
const k6Status = run('npx', ['tsc', '-p', 'infra/k6/tsconfig.json', '--noEmit']);
broken ||= k6Status !== 0;

// The suites that start the server as processes of their own run dist/: built once here, before any
// of them runs (a suite rebuilding it while another's processes loaded it let one read a half-written module).
broken ||= run('npm', ['run', '--silent', 'build:server']) !== 0;

const jestStatus = run('npx', ['jest', '-c', 'jest.config.js', '--ci', '--maxWorkers=2', '--json', '--outputFile=test-output/jest.json'], { SERVER_BUILT: '1' });
if (existsSync('test-output/jest.json')) {
  const report = JSON.parse(readFileSync('test-output/jest.json', 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests + report.numRuntimeErrorTestSuites;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}
broken ||= jestStatus !== 0;

if (existsSync('web/vitest.config.ts')) {
  const status = run('npx', ['vitest', 'run', '--config', 'web/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${resolve('test-output/vitest.json')}`]);
  if (existsSync('test-output/vitest.json')) {
    const report = JSON.parse(readFileSync('test-output/vitest.json', 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  }
  broken ||= status !== 0;
}

if (ci && totals.skipped > 0) {
  process.stdout.write(`\nCI=true: ${totals.skipped} skipped test(s) count as a failure (install what they need).\n`);
  broken = true;
}
process.stdout.write(`\nAll suites: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(broken || totals.failed > 0 ? 1 : 0);
