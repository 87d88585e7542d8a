import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { embeddedJwtSecret } from './jwt-secret';
import { SERVICE_CATALOGUE } from './service-catalogue';

/**
 * `npm run start:distributed`: every service its own process over Redis Streams
 * (ARCHITECTURE §2). `--replicas notifications=2` runs several replicas of one service;
 * they share the service's consumer group and split its events.
 */
function parseReplicas(argv: string[]): Map<string, number> {
  const replicas = new Map<string, number>();
  argv.forEach((arg, i) => {
    const value = arg === '--replicas' ? argv[i + 1] : arg.startsWith('--replicas=') ? arg.slice(11) : undefined;
    for (const pair of value?.split(',') ?? []) {
      const [name, count] = pair.split('=');
      if (name && Number(count) > 0) replicas.set(name, Number(count));
    }
  });
  return replicas;
}

function main(): void {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const dataDir = resolve(process.env.DATA_DIR ?? '.data-distributed');
  const replicas = parseReplicas(process.argv.slice(2));
  if ([...replicas.values()].some((n) => n > 1) && process.env.STORE !== 'mongo') {
    // NeDB is one process's file: replicas must share a real database.
    process.stderr.write('--replicas above 1 needs STORE=mongo and MONGO_URL (NeDB files cannot be shared by processes)\n');
    process.exit(1);
  }
  const dist = resolve(__dirname, '../../..');
  const common = {
    ...process.env,
    BUS: 'redis',
    REDIS_URL: redisUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: process.env.JWT_SECRET ?? embeddedJwtSecret(dataDir),
  };
  const children: ChildProcess[] = [];
  const gatewayEnv: Record<string, string> = {};
  for (const entry of SERVICE_CATALOGUE) {
    const name = entry.definition.name;
    const count = replicas.get(name) ?? 1;
    for (let i = 0; i < count; i++) {
      const port = entry.port + i * 100;
      children.push(
        spawn(process.execPath, [join(dist, `services/${name}/src/main.js`)], {
          env: { ...common, PORT: String(port), REPLICA: String(i) },
          stdio: 'inherit',
        }),
      );
      if (i === 0) gatewayEnv[`${name.toUpperCase()}_SERVICE_URL`] = `http://127.0.0.1:${port}`;
    }
  }
  children.push(
    spawn(process.execPath, [join(dist, 'gateway/src/main.js')], {
      env: { ...common, ...gatewayEnv, PORT: process.env.PORT ?? '3000' },
      stdio: 'inherit',
    }),
  );
  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
