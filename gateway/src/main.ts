import 'reflect-metadata';
import { startConfiguredMetrics, tuneHeap } from '@app/platform';
import { createGatewayApp, loadGatewayConfig, serviceUrlsFromConfig } from './gateway.app';

async function main(): Promise<void> {
  tuneHeap();
  const config = loadGatewayConfig();
  const app = await createGatewayApp(config, serviceUrlsFromConfig(config));
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  process.stdout.write(JSON.stringify({ level: 30, service: 'gateway', msg: `listening on ${config.HOST}:${config.PORT}` }) + '\n');
  const metrics = await startConfiguredMetrics(config);
  if (metrics) process.stdout.write(JSON.stringify({ level: 30, service: 'gateway', msg: `metrics on ${metrics.url}/metrics` }) + '\n');
}

main().catch((err: Error) => {
  process.stderr.write(`gateway failed to start: ${err.message}\n`);
  process.exit(1);
});
