// The platform first: it enables the compile cache (Node 22+) before the stack's modules load.
import { tuneHeap } from '@app/platform';
import { DEMO_PASSWORD } from './seed/auth.seed';
import { startEmbeddedStack } from './embedded-stack';

/** `npm start`: the whole product in one process on the embedded engines. */
async function main(): Promise<void> {
  tuneHeap();
  const stack = await startEmbeddedStack({
    port: Number(process.env.PORT ?? 3000),
    host: process.env.HOST ?? '0.0.0.0',
    dataDir: process.env.DATA_DIR ?? '.data',
    seed: process.env.SEED_DEMO !== 'off',
    // A quiet console for whoever runs `npm start`; LOG_LEVEL=info shows every request.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  const lines = [`\n  SquadReviews is running at ${stack.url}\n`];
  if (stack.seedFailure) {
    lines.push(`  The demo seed failed (${stack.seedFailure}); the app runs with what it made. Start on an empty DATA_DIR for the whole demo.\n`);
  } else if (stack.seeded?.users[0]) {
    lines.push(`  Demo login: ${stack.seeded.users[0].email} / ${DEMO_PASSWORD} (every demo member uses that password)\n`);
  } else {
    lines.push(`  Data from ${process.env.DATA_DIR ?? '.data'}; demo login (if seeded there): ayse@demo.local / ${DEMO_PASSWORD} (demo1234 on folders seeded before the password policy)\n`);
  }
  process.stdout.write(lines.join(''));
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`\n  ${signal}: closing...\n`);
    await stack.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: Error) => {
  process.stderr.write(`Could not start: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
