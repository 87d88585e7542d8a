/**
 * A k6 stand-in for machines without the k6 binary (issue 23 §5): runs an infra/k6/*.ts
 * scenario as k6 would, its setup() once and its default function in a loop per virtual user
 * (worker threads, vu.ts), the requests sent from this thread with undici and timed here.
 * Emulated: k6 (check, group, sleep, fail), k6/http request, k6/metrics, the constant-vus,
 * ramping-vus (its peak) and constant-arrival-rate (its VUs, looping) executors, and the
 * thresholds on checks, http_req_failed and http_req_duration (also per `name` tag). Not
 * emulated: k6/ws (the chat scenario says so and is skipped). The scripts stay k6's own.
 */
import { transformSync } from '@swc/core';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { vuMain, VuData } from './vu';

const REPLY_BYTES = 8 * 1024 * 1024;

export interface K6RunOptions {
  /** Passed to the script as __ENV (BASE_URL, DURATION, VUS, SEED_USERS...). */
  env: Record<string, string | undefined>;
  /** Overrides the scenario's duration, seconds. */
  seconds?: number;
  /** Overrides the scenario's VU count. */
  vus?: number;
}

export interface Threshold {
  metric: string;
  rule: string;
  ok: boolean;
}

export interface K6Summary {
  script: string;
  skipped?: string;
  vus: number;
  seconds: number;
  iterations: number;
  checks: { name: string; passes: number; fails: number }[];
  requests: { count: number; failed: number; p95: number; p99: number; avg: number; byName: Record<string, number[]> };
  errors: string[];
  thresholds: Threshold[];
}

/** The script and the local modules it imports, compiled to CommonJS, by absolute path. */
function compile(entry: string): Record<string, string> {
  const modules: Record<string, string> = {};
  const visit = (file: string) => {
    if (modules[file] !== undefined) return;
    const source = readFileSync(file, 'utf8');
    modules[file] = transformSync(source, { filename: file, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code;
    for (const [, name] of source.matchAll(/from\s+'(\.[^']+)'/g)) visit(resolve(dirname(file), name));
  };
  visit(entry);
  return modules;
}

/** "1m", "30s", "2h" as seconds. */
function seconds(duration: string | undefined, fallback: number): number {
  const match = /^(\d+)(s|m|h)$/.exec(duration ?? '');
  if (!match) return fallback;
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as 's' | 'm' | 'h'];
}

interface Scenario {
  executor: string;
  vus?: number;
  duration?: string;
  preAllocatedVUs?: number;
  stages?: { duration: string; target: number }[];
}

/** VUs and seconds of the script's first scenario. */
function shape(scenario: Scenario | undefined): { vus: number; seconds: number } {
  if (scenario?.stages) {
    return { vus: Math.max(1, ...scenario.stages.map((s) => s.target)), seconds: scenario.stages.reduce((t, s) => t + seconds(s.duration, 0), 0) };
  }
  return { vus: scenario?.vus ?? scenario?.preAllocatedVUs ?? 1, seconds: seconds(scenario?.duration, 10) };
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const round = (ms: number) => Number(ms.toFixed(2));

class Recorder {
  readonly checks = new Map<string, { passes: number; fails: number }>();
  readonly durations: number[] = [];
  readonly byName: Record<string, number[]> = {};
  readonly errors: string[] = [];
  failed = 0;

  check(name: string, ok: boolean): void {
    const entry = this.checks.get(name) ?? { passes: 0, fails: 0 };
    if (ok) entry.passes++;
    else entry.fails++;
    this.checks.set(name, entry);
  }

  request(name: string, ms: number, status: number): void {
    this.durations.push(ms);
    (this.byName[name] ??= []).push(ms);
    // k6's default expected statuses: 200-399.
    if (status < 200 || status >= 400) this.failed++;
  }
}

/** Serves one VU's blocking requests: undici, timed here, the reply written into the shared buffer. */
async function serve(agent: Agent, shared: SharedArrayBuffer, recorder: Recorder, message: { method: string; url: string; body: string | null; headers: Record<string, string>; name: string }): Promise<void> {
  const started = performance.now();
  let reply: { status: number; body: string; headers: Record<string, string>; duration: number };
  try {
    const res = await request(message.url, { method: message.method as 'GET', body: message.body ?? undefined, headers: message.headers, dispatcher: agent });
    const body = await res.body.text();
    const duration = performance.now() - started;
    reply = { status: res.statusCode, body, headers: res.headers as Record<string, string>, duration };
  } catch (err) {
    reply = { status: 0, body: (err as Error).message, headers: {}, duration: performance.now() - started };
  }
  recorder.request(message.name, reply.duration, reply.status);
  const bytes = new TextEncoder().encode(JSON.stringify(reply)).subarray(0, REPLY_BYTES);
  new Uint8Array(shared, 8).set(bytes);
  const signal = new Int32Array(shared, 0, 2);
  Atomics.store(signal, 1, bytes.length);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** Runs one VU to its end: `done`'s payload. */
interface VuEnd {
  data?: unknown;
  iterations?: number;
  error?: string;
}

function runVu(agent: Agent, recorder: Recorder, data: Omit<VuData, 'shared'>): Promise<VuEnd> {
  const shared = new SharedArrayBuffer(8 + REPLY_BYTES);
  const worker = new Worker(`(${vuMain.toString()})()`, { eval: true, workerData: { ...data, shared } });
  return new Promise((resolvePromise, reject) => {
    worker.on('message', (message: { kind: string; [key: string]: unknown }) => {
      if (message.kind === 'http') void serve(agent, shared, recorder, message as never);
      else if (message.kind === 'check') recorder.check(String(message.name), Boolean(message.ok));
      else if (message.kind === 'error') recorder.errors.push(String(message.message));
      else if (message.kind === 'done') {
        resolvePromise(message as VuEnd);
        void worker.terminate();
      }
    });
    worker.once('error', reject);
  });
}

/** k6's threshold rules this runner reads: `rate<x`, `rate>x`, `p(95)<ms`, `avg<ms`. */
function judge(rule: string, values: { rate?: number; durations?: number[] }): boolean {
  const match = /^(rate|p\((\d+(?:\.\d+)?)\)|avg|med)\s*(<|<=|>|>=)\s*([\d.]+)$/.exec(rule.replace(/\s+/g, ''));
  if (!match) return false;
  const sorted = [...(values.durations ?? [])].sort((a, b) => a - b);
  const actual =
    match[1] === 'rate' ? (values.rate ?? 0) : match[1] === 'avg' ? sorted.reduce((t, v) => t + v, 0) / Math.max(1, sorted.length) : percentile(sorted, match[1] === 'med' ? 50 : Number(match[2]));
  const limit = Number(match[4]);
  return { '<': actual < limit, '<=': actual <= limit, '>': actual > limit, '>=': actual >= limit }[match[3] as '<'];
}

function thresholds(defined: Record<string, string[]>, recorder: Recorder): Threshold[] {
  const checks = [...recorder.checks.values()].reduce((t, c) => ({ passes: t.passes + c.passes, all: t.all + c.passes + c.fails }), { passes: 0, all: 0 });
  return Object.entries(defined).flatMap(([metric, rules]) => {
    const tagged = /^http_req_duration\{name:(.+)\}$/.exec(metric)?.[1];
    const values =
      metric === 'checks'
        ? { rate: checks.passes / Math.max(1, checks.all) }
        : metric === 'http_req_failed'
          ? { rate: recorder.failed / Math.max(1, recorder.durations.length) }
          : { durations: tagged ? (recorder.byName[tagged] ?? []) : metric === 'http_req_duration' ? recorder.durations : undefined };
    if (values.durations === undefined && !('rate' in values)) return [];
    return rules.map((rule) => ({ metric, rule, ok: judge(rule, values) }));
  });
}

/** Runs `script` (a path under infra/k6) against env.BASE_URL and returns k6's end-of-test numbers. */
export async function runK6Script(script: string, options: K6RunOptions): Promise<K6Summary> {
  const entry = resolve(script);
  const modules = compile(entry);
  const env = { ...options.env };
  const base = { vu: 0, env, modules, entry, seconds: 0 };
  const agent = new Agent({ connections: 512, keepAliveTimeout: 4_000 });
  const recorder = new Recorder();
  try {
    const setup = await runVu(agent, recorder, { ...base, phase: 'setup' });
    const shapeOf = shape(await scenarioOf(agent, modules, entry, env));
    const vus = options.vus ?? shapeOf.vus;
    const runSeconds = options.seconds ?? shapeOf.seconds;
    if (setup.error) return summarise(script, recorder, { vus, seconds: runSeconds, iterations: 0, skipped: setup.error, defined: {} });
    const setupChecks = new Map(recorder.checks);
    recorder.durations.length = 0;
    recorder.failed = 0;
    for (const key of Object.keys(recorder.byName)) delete recorder.byName[key];
    recorder.checks.clear();
    for (const [name, counts] of setupChecks) recorder.checks.set(name, counts);
    const runs = await Promise.all(
      Array.from({ length: vus }, (_, i) => runVu(agent, recorder, { ...base, vu: i + 1, phase: 'run', seconds: runSeconds, setupData: setup.data })),
    );
    const iterations = runs.reduce((t, r) => t + (r.iterations ?? 0), 0);
    const defined = (await optionsOf(agent, modules, entry, env)).thresholds ?? {};
    return summarise(script, recorder, { vus, seconds: runSeconds, iterations, defined });
  } finally {
    await agent.close();
  }
}

interface ScriptOptions {
  scenarios?: Record<string, Scenario>;
  thresholds?: Record<string, string[]>;
}

/** The script's exported `options`, read by a VU that runs nothing. */
async function optionsOf(agent: Agent, modules: Record<string, string>, entry: string, env: K6RunOptions['env']): Promise<ScriptOptions> {
  const reader = `${entry}.options.js`;
  const code = `module.exports = { default: () => undefined, setup: () => require(${JSON.stringify(`./${entry.split('/').pop()}`)}).options };`;
  const answer = await runVu(agent, new Recorder(), { vu: 0, env, modules: { ...modules, [reader]: code }, entry: reader, seconds: 0, phase: 'setup' });
  return (answer.data ?? {}) as ScriptOptions;
}

async function scenarioOf(agent: Agent, modules: Record<string, string>, entry: string, env: K6RunOptions['env']): Promise<Scenario | undefined> {
  return Object.values((await optionsOf(agent, modules, entry, env)).scenarios ?? {})[0];
}

function summarise(
  script: string,
  recorder: Recorder,
  run: { vus: number; seconds: number; iterations: number; skipped?: string; defined: Record<string, string[]> },
): K6Summary {
  const sorted = [...recorder.durations].sort((a, b) => a - b);
  return {
    script,
    skipped: run.skipped,
    vus: run.vus,
    seconds: run.seconds,
    iterations: run.iterations,
    checks: [...recorder.checks].map(([name, c]) => ({ name, ...c })),
    requests: {
      count: sorted.length,
      failed: recorder.failed,
      avg: round(sorted.reduce((t, v) => t + v, 0) / Math.max(1, sorted.length)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      byName: recorder.byName,
    },
    errors: [...new Set(recorder.errors)].slice(0, 5),
    thresholds: thresholds(run.defined, recorder),
  };
}

const dots = (label: string) => `     ${label}${'.'.repeat(Math.max(2, 32 - label.length))}: `;

/** k6's end-of-test summary, in its layout. */
export function formatSummary(s: K6Summary): string {
  if (s.skipped) return `\n  ${s.script}: not run (${s.skipped})\n`;
  const lines = [`\n  scenario: ${s.script}, ${s.vus} VUs for ${s.seconds}s (k6 runner, undici)\n`];
  for (const c of s.checks) {
    const all = c.passes + c.fails;
    lines.push(c.fails === 0 ? `     ✓ ${c.name}` : `     ✗ ${c.name}\n      ↳  ${Math.floor((100 * c.passes) / all)}% — ✓ ${c.passes} / ✗ ${c.fails}`);
  }
  const passes = s.checks.reduce((t, c) => t + c.passes, 0);
  const fails = s.checks.reduce((t, c) => t + c.fails, 0);
  const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(2)}%`;
  const r = s.requests;
  lines.push(
    '',
    `${dots('checks')}${pct(passes, passes + fails)} ✓ ${passes} ✗ ${fails}`,
    `${dots('http_req_duration')}avg=${r.avg}ms p(95)=${r.p95}ms p(99)=${r.p99}ms`,
    `${dots('http_req_failed')}${pct(r.failed, r.count)} ✓ ${r.failed} ✗ ${r.count - r.failed}`,
    `${dots('http_reqs')}${r.count} ${(r.count / Math.max(1, s.seconds)).toFixed(1)}/s`,
    `${dots('iterations')}${s.iterations}`,
    ...s.thresholds.map((t) => `     ${t.ok ? '✓' : '✗'} threshold ${t.metric}: ${t.rule}`),
    ...s.errors.map((e) => `     error: ${e}`),
  );
  return `${lines.join('\n')}\n`;
}

/** The scenarios `npm run bench` runs (chat needs k6/ws: real k6 only). */
export const K6_SCRIPTS = ['browse', 'feed-reader', 'writer', 'spike'].map((name) => join('infra/k6', `${name}.ts`));
