// The part of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
  }
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: Request) => Request;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram & { p95?: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  /** Resolves with the result; emits `response` (client, status, bytes, milliseconds) per reply. */
  interface Tracker extends PromiseLike<Result> {
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): this;
  }
  function autocannon(options: Options): Tracker;
  export default autocannon;
}
