// Bundles each deployable's entry point (dist/gateway/src/main.js, dist/services/<name>/src/main.js)
// in place, after swc compiled the server code (`npm run build:server`). A process then reads and
// compiles one file instead of resolving, reading and wrapping ~1,700 modules one by one: that
// loading was about a third of each process's CPU at boot (docs/PERFORMANCE.md, issue 44).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Required at run time from node_modules, not bundled:
 * - native or engine packages only some profiles load (their adapters require them lazily);
 * - optional packages that Nest's adapters require only when used, and that are not installed.
 * Each is a leaf: nothing bundled shares state with it (a bundled copy of a package that an
 * external one also loads would make two instances of it).
 */
const EXTERNAL = [
  'better-sqlite3',
  'mongoose',
  'mongodb',
  'kafkajs',
  'nodemailer',
  'mingo',
  '@fastify/static',
  '@fastify/view',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
  'amqp-connection-manager',
  'amqplib',
  'class-transformer/storage',
  'mqtt',
  'nats',
];

const entryPoints = [
  'dist/gateway/src/main.js',
  ...readdirSync('dist/services', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join('dist/services', entry.name, 'src/main.js')),
];

/**
 * V8 holds a script's source for as long as it runs, one byte a character when every character
 * is ASCII and two otherwise: a few regular expressions with accented letters (validator's
 * alphabets) doubled a 7 MB bundle. They are written as \u escapes, which mean the same in
 * strings, regular expressions and identifiers.
 */
const asAscii = (code) => code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

await Promise.all(
  entryPoints.map(async (entry) => {
    const { outputFiles } = await build({
      entryPoints: [entry],
      outfile: entry,
      write: false,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: EXTERNAL,
      // Nest names providers, modules and loggers after their classes.
      keepNames: true,
      // Without comments and indentation the source V8 keeps is a third smaller.
      minifyWhitespace: true,
      legalComments: 'none',
      charset: 'ascii',
      // Chained to swc's maps: `node --enable-source-maps` reports the TypeScript lines.
      sourcemap: true,
      logLevel: 'warning',
      logOverride: { 'require-resolve-not-external': 'silent' },
    });
    for (const file of outputFiles) writeFileSync(file.path, file.path.endsWith('.js') ? asAscii(file.text) : file.contents);
  }),
);
