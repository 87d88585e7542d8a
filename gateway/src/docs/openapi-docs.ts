import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import serveStatic from 'serve-static';
import { OPENAPI_PATH } from '@app/platform';
import type { Step } from '../http/pipeline';
import { sendBody, sendJson } from '../proxy/envelope-reply';
import { routePath } from '../proxy/route-path';
import { SERVICE_NAMES, ServiceName } from '../proxy/routes';
import { ServiceUrls } from '../proxy/service-proxy';

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, { tags?: string[]; summary?: string }>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  tags?: { name: string; description?: string }[];
  security?: Record<string, string[]>[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const SCHEMA_REF = '#/components/schemas/';

/** Schema names that two services define with different content. */
function clashingSchemaNames(parts: Partial<Record<ServiceName, OpenApiDocument>>): Set<string> {
  const first = new Map<string, string>();
  const clashes = new Set<string>();
  for (const service of SERVICE_NAMES) {
    for (const [name, schema] of Object.entries(parts[service]?.components?.schemas ?? {})) {
      const json = JSON.stringify(schema);
      if (!first.has(name)) first.set(name, json);
      else if (first.get(name) !== json) clashes.add(name);
    }
  }
  return clashes;
}

/** The service's document with its clashing schemas, and every reference to them, renamed `<service>.<name>`. */
function qualifySchemas(service: ServiceName, doc: OpenApiDocument | undefined, clashes: Set<string>): OpenApiDocument | undefined {
  const own = Object.keys(doc?.components?.schemas ?? {}).filter((name) => clashes.has(name));
  if (!doc || own.length === 0) return doc;
  const target = (ref: string) => (ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : '');
  const renamed = JSON.parse(JSON.stringify(doc), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && own.includes(target(value)) ? `${SCHEMA_REF}${service}.${target(value)}` : value,
  ) as OpenApiDocument;
  const schemas = renamed.components?.schemas ?? {};
  renamed.components = { ...renamed.components, schemas: Object.fromEntries(Object.entries(schemas).map(([n, s]) => [own.includes(n) ? `${service}.${n}` : n, s])) };
  return renamed;
}

/**
 * One document from every service's own (`GET <service>/openapi.json`): paths keep their
 * /api prefix (services document with it; their /health and /metrics are left out), operations are tagged with their service, and a
 * service that does not answer is named in the description instead of failing the whole.
 * Component schemas are kept; a name two services define differently becomes `<service>.<name>`
 * in each of them (references included), so no service's schema replaces another's.
 */
export function mergeDocuments(parts: Partial<Record<ServiceName, OpenApiDocument>>): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: '3.0.0',
    info: { title: 'SquadReviews API', version: '1' },
    paths: {},
    components: { schemas: {}, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    tags: [],
    security: [{ bearer: [] }],
  };
  const missing: string[] = [];
  const clashes = clashingSchemaNames(parts);
  for (const service of SERVICE_NAMES) {
    const doc = qualifySchemas(service, parts[service], clashes);
    if (!doc) {
      missing.push(service);
      continue;
    }
    merged.tags?.push({ name: service, description: doc.info.title });
    for (const [path, operations] of Object.entries(doc.paths ?? {})) {
      // A service's /health and /metrics are its own, not reachable through the gateway.
      if (!path.startsWith('/api/')) continue;
      const target = (merged.paths[path] ??= {});
      for (const [method, operation] of Object.entries(operations)) {
        target[method] = HTTP_METHODS.includes(method) ? { ...operation, tags: [service, ...(operation.tags ?? [])] } : operation;
      }
    }
    Object.assign(merged.components?.schemas ?? {}, doc.components?.schemas ?? {});
  }
  if (missing.length > 0) merged.info.description = `Not answering when this was built: ${missing.join(', ')}.`;
  return merged;
}

async function fetchDocument(url: string): Promise<OpenApiDocument | undefined> {
  try {
    const res = await fetch(`${url}${OPENAPI_PATH}`, { signal: AbortSignal.timeout(3000) });
    return res.ok ? ((await res.json()) as OpenApiDocument) : undefined;
  } catch {
    return undefined;
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The route list as a plain table: readable without JavaScript. */
function routeTable(doc: OpenApiDocument): string {
  const rows = Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => `<tr><td>${escape(op.tags?.[0] ?? '')}</td><td>${method.toUpperCase()}</td><td><code>${escape(path)}</code></td></tr>`),
  );
  return `<table><thead><tr><th>service</th><th>method</th><th>path</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * swagger-ui-dist's folder when it is installed (it comes with @nestjs/swagger); otherwise only
 * the table. Resolved, not required: the package's index loads its 1.8 MB of bundles into the
 * gateway, which serves them as files and never runs them.
 */
function swaggerUiDir(): string | undefined {
  try {
    return dirname(require.resolve('swagger-ui-dist/absolute-path.js'));
  } catch {
    return undefined;
  }
}

function page(doc: OpenApiDocument, withUi: boolean): string {
  const ui = withUi
    ? '<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"><div id="swagger-ui"></div>' +
      '<script src="/api/docs/assets/swagger-ui-bundle.js"></script><script src="/api/docs/init.js"></script>'
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SquadReviews API</title></head><body>
<h1>SquadReviews API</h1><p>OpenAPI document: <a href="/api/docs/openapi.json">/api/docs/openapi.json</a></p>${ui}
<details${withUi ? '' : ' open'}><summary>Every route</summary>${routeTable(doc)}</details></body></html>`;
}

// Inline scripts are refused by the gateway's Content-Security-Policy, so the start-up is a file.
const INIT_JS = "window.ui = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#swagger-ui' });\n";

function sendText(req: IncomingMessage, res: ServerResponse, type: string, text: string): void {
  sendBody(req, res, 200, `${type}; charset=utf-8`, text);
}

const ASSETS = '/api/docs/assets/';

/** Swagger UI's files from `dir` under /api/docs/assets/ (the prefix taken off the URL, as a mounted router did). */
function docsAssets(dir: string): Step<IncomingMessage> {
  const files = serveStatic(dir, { index: false, fallthrough: true });
  return (req, res, next) => {
    const url = req.url ?? '/';
    if (!url.toLowerCase().startsWith(ASSETS)) return next();
    req.url = url.slice(ASSETS.length - 1);
    files(req, res, (err?: unknown) => {
      req.url = url;
      next(err);
    });
  };
}

/**
 * `/api/docs`: the merged document (`/api/docs/openapi.json`) and a page showing it with
 * Swagger UI served from swagger-ui-dist (no CDN). A complete merge is kept; a partial one
 * is rebuilt on the next request, so a service that was starting shows up later.
 */
export function createDocsHandler(urls: ServiceUrls): Step<IncomingMessage> {
  let complete: OpenApiDocument | undefined;
  const document = async (): Promise<OpenApiDocument> => {
    if (complete) return complete;
    const names = SERVICE_NAMES.filter((n) => urls[n]);
    const docs = await Promise.all(names.map((n) => fetchDocument(urls[n] as string)));
    const parts = Object.fromEntries(names.flatMap((n, i) => (docs[i] ? [[n, docs[i]]] : [])));
    const merged = mergeDocuments(parts);
    if (!merged.info.description) complete = merged;
    return merged;
  };
  // Looked up at the first docs request, not at boot.
  let ui: { dir: string | undefined; assets?: Step<IncomingMessage> } | undefined;
  const docsUi = () => {
    if (!ui) {
      const dir = swaggerUiDir();
      ui = { dir, assets: dir ? docsAssets(dir) : undefined };
    }
    return ui;
  };

  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = routePath(req.url ?? '/');
    if (!path.toLowerCase().startsWith('/api/docs')) return next();
    const { dir: uiDir, assets } = docsUi();
    if (path === '/api/docs/openapi.json') return sendJson(req, res, await document());
    if (path === '/api/docs') return sendText(req, res, 'text/html', page(await document(), uiDir !== undefined));
    if (uiDir && path === '/api/docs/init.js') return sendText(req, res, 'application/javascript', INIT_JS);
    if (assets) return assets(req, res, next);
    next();
  };
}
