/**
 * One k6 virtual user, run in a worker thread (its source is `vuMain.toString()`, so it must
 * stay self-contained: no imports, no helpers). k6 scripts are synchronous: `http.request`
 * blocks this thread on Atomics.wait while the runner's thread sends the request with undici
 * and writes the reply into the shared buffer. Measurements are the runner's, never this thread's.
 */
export function vuMain(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an eval worker has no imports
  const { workerData, parentPort } = require('node:worker_threads') as typeof import('node:worker_threads');
  const data = workerData as VuData;
  const port = parentPort as import('node:worker_threads').MessagePort;
  const signal = new Int32Array(data.shared, 0, 2);
  const bytes = new Uint8Array(data.shared, 8);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const g = globalThis as unknown as Record<string, unknown>;
  g.__ENV = data.env;
  g.__VU = data.vu;
  g.__ITER = 0;

  const request = (method: string, url: string, body: unknown, params?: { headers?: Record<string, string>; tags?: Record<string, string> }) => {
    Atomics.store(signal, 0, 0);
    port.postMessage({ kind: 'http', method, url, body: body ?? null, headers: params?.headers ?? {}, name: params?.tags?.name ?? url });
    Atomics.wait(signal, 0, 0);
    const reply = JSON.parse(new TextDecoder().decode(bytes.slice(0, Atomics.load(signal, 1)))) as { status: number; body: string; headers: Record<string, string>; duration: number };
    return { ...reply, timings: { duration: reply.duration }, json: () => JSON.parse(reply.body) as unknown };
  };
  const check = (value: unknown, sets: Record<string, (v: unknown) => boolean>) => {
    let all = true;
    for (const [name, test] of Object.entries(sets)) {
      let ok = false;
      try {
        ok = Boolean(test(value));
      } catch {
        ok = false;
      }
      port.postMessage({ kind: 'check', name, ok });
      all &&= ok;
    }
    return all;
  };
  // k6/metrics' Counter and Trend: custom metrics are accepted and left out of the summary.
  const Metric = function () {
    return { add: () => undefined };
  };
  const shims: Record<string, unknown> = {
    k6: {
      check,
      group: (_name: string, fn: () => unknown) => fn(),
      sleep: (seconds: number) => Atomics.wait(sleeper, 0, 0, seconds * 1000),
      fail: (message: string) => {
        throw new Error(message);
      },
    },
    'k6/http': { default: { request }, request, get: (url: string, params?: object) => request('GET', url, null, params) },
    'k6/metrics': { Counter: Metric, Trend: Metric, Rate: Metric, Gauge: Metric },
    'k6/options': {},
  };
  const cache = new Map<string, Record<string, unknown>>();
  const load = (file: string): Record<string, unknown> => {
    const known = cache.get(file);
    if (known) return known;
    const module = { exports: {} as Record<string, unknown> };
    cache.set(file, module.exports);
    const localRequire = (name: string) => {
      if (name in shims) return shims[name];
      if (name.startsWith('k6')) throw new Error(`${name} is not emulated by the k6 runner`);
      const dir = file.slice(0, file.lastIndexOf('/'));
      return load(`${dir}/${name.replace(/^\.\//, '')}`);
    };
    new Function('require', 'module', 'exports', data.modules[file])(localRequire, module, module.exports);
    cache.set(file, module.exports);
    return module.exports;
  };
  const answer = (payload: object) => port.postMessage({ kind: 'done', ...payload });
  try {
    const script = load(data.entry);
    if (data.phase === 'setup') return answer({ data: typeof script.setup === 'function' ? (script.setup as () => unknown)() : undefined });
    const iterate = script.default as (setupData: unknown) => void;
    const stopAt = Date.now() + data.seconds * 1000;
    let iterations = 0;
    while (Date.now() < stopAt && (data.iterations === undefined || iterations < data.iterations)) {
      try {
        iterate(data.setupData);
      } catch (err) {
        port.postMessage({ kind: 'error', message: (err as Error).message });
      }
      iterations++;
      g.__ITER = iterations;
    }
    answer({ iterations });
  } catch (err) {
    answer({ error: (err as Error).message });
  }
}

export interface VuData {
  phase: 'setup' | 'run';
  vu: number;
  env: Record<string, string | undefined>;
  /** Each module's CommonJS code by absolute path (the runner compiled them). */
  modules: Record<string, string>;
  entry: string;
  shared: SharedArrayBuffer;
  setupData?: unknown;
  seconds: number;
  iterations?: number;
}
