import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { metricsRegistry } from './metrics';

export interface MetricsServer {
  /** http://host:port: where Prometheus scrapes `/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The process's metrics on a port of their own (METRICS_PORT), never on the public one: Node's
 * version, memory, route names and counts are for the operator's Prometheus, which reaches this
 * port inside the cluster (docs/OPERATIONS.md). Only GET /metrics is answered; port 0 picks a free one.
 */
export async function startMetricsServer(port: number, host: string): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?', 1)[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
