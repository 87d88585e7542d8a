// What both audits (web-audit.mjs, cold-start.mjs) share: the embedded stack they measure, and its API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '../..');

/** The built embedded stack on a fresh temp data folder seeded with the demo; `close` removes the folder. */
export async function startStack() {
  const entry = join(ROOT, 'dist/infra/launcher/src/embedded-stack.js');
  const { startEmbeddedStack } = await import(pathToFileURL(entry).href).catch(() => {
    throw new Error(`${entry} is missing: run \`npm run build:server && npm run build:web\` first (npm run audit:web does).`);
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'audit-web-'));
  const stack = await startEmbeddedStack({ port: 0, dataDir, seed: true, env: { LOG_LEVEL: 'silent', WEB_DIR: join(ROOT, 'web/dist') } });
  return {
    url: stack.url,
    close: async () => {
      await stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One call of the API (GET, or POST with a JSON body); its `data`, or an error naming the path and status. */
export async function api(base, path, token, body) {
  const res = await fetch(`${base}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}
