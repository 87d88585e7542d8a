import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';

/** A reply as the probes see it: status, the parsed JSON (when it is JSON) and the raw text. */
export interface ProbeReply {
  status: number;
  json: unknown;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface ProbeRequest {
  method: string;
  /** Sent exactly as given: no URL normalisation, so `../` and `%00` reach the server untouched. */
  path: string;
  token?: string;
  /** A string is sent as is (malformed JSON); anything else is JSON-encoded. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Raw HTTP through node:http rather than fetch: fetch normalises `..` and rejects some
 * encodings, which would hide exactly the inputs these tests want to deliver.
 */
export function probe(baseUrl: string, req: ProbeRequest): Promise<ProbeReply> {
  const url = new URL(baseUrl);
  const payload =
    req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
  const headers: Record<string, string> = { ...req.headers };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  if (payload !== undefined) {
    headers['content-type'] = req.contentType ?? 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const timeoutMs = req.timeoutMs ?? 5000;
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json, text, headers: res.headers });
        });
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no reply within ${timeoutMs} ms: ${req.method} ${req.path.slice(0, 120)}`)));
    r.on('error', reject);
    if (payload !== undefined) r.write(payload);
    r.end();
  });
}

/** Runs the tasks with at most `width` in flight. */
export async function inParallel<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}

export function isErrorEnvelope(json: unknown): boolean {
  if (!json || typeof json !== 'object') return false;
  const body = json as { success?: unknown; message?: unknown };
  return body.success === false && typeof body.message === 'string' && body.message.length > 0;
}

/** Keys anywhere in a JSON value (own keys, depth-first). */
export function keysOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      keysOf(v, into);
    }
  }
  return into;
}

/** Every HTTP route declared in the services' controllers, as `METHOD /api/a/:p/b` with params renamed `:p`. */
export function declaredRoutes(): string[] {
  const servicesDir = join(__dirname, '../../../services');
  const files = readdirSync(servicesDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.controller.ts'))
    .map((f) => readFileSync(join(servicesDir, f), 'utf8'));
  const routes: string[] = [];
  for (const src of files) {
    const prefix = /@Controller\((?:'([^']*)')?\)/.exec(src)?.[1] ?? '';
    for (const m of src.matchAll(/@(Get|Post|Put|Delete|Patch)\((?:'([^']*)')?\)/g)) {
      const path = ['/api', prefix, m[2] ?? ''].filter(Boolean).join('/');
      routes.push(`${m[1].toUpperCase()} ${normalise(path)}`);
    }
  }
  return routes.sort();
}

export function normalise(path: string): string {
  return path.replace(/:[A-Za-z]+/g, ':p').replace(/\/$/, '');
}
