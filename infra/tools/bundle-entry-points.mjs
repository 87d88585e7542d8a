// Bundles each deployable's entry point (dist/gateway/src/main.js, dist/services/<name>/src/main.js),
// after swc compiled the server code (`npm run build:server`), into main.bundle.js beside it, and
// makes main.js run the bundle with V8's code cache (libs/platform/src/bootstrap/bundle-runner.ts).
// A process then compiles one file, or none with the cache, instead of resolving, reading and
// compiling ~1,700 modules one by one: most of its CPU at boot (docs/PERFORMANCE.md, issue 44).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

/**
 * Required at run time from node_modules, not bundled:
 * - native or engine packages only some profiles load (their adapters require them lazily);
 * - optional packages that Nest's adapters require only when used, and that are not installed;
 * - large ones a process loads only on a rare path (a body in another charset, a schema compiled
 *   on demand, the OpenAPI document): V8 keeps a bundle's whole source, run or not.
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
  'iconv-lite',
  '@fastify/ajv-compiler',
  'ajv-formats',
  'mime-db',
  'js-yaml',
  'lodash',
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

/**
 * Modules a bundled package requires at its top level for a function the product never calls,
 * each with the exports that package uses: bundled as a stub that requires the real module (from
 * node_modules, not bundled) on the first call. class-validator's index loads libphonenumber-js
 * for IsPhoneNumber, and its metadata made 1.7 MB of every process's heap and 0.4 MB of source.
 */
const LOADED_ON_FIRST_CALL = { 'libphonenumber-js/max': ['parsePhoneNumber'] };

const onFirstCall = {
  name: 'loaded-on-first-call',
  setup(build) {
    const paths = new RegExp(`^(${Object.keys(LOADED_ON_FIRST_CALL).map((p) => p.replace(/[/.-]/g, '\\$&')).join('|')})$`);
    // The stub's own require goes to node_modules at run time.
    build.onResolve({ filter: paths }, (args) => (args.namespace === 'first-call' ? { path: args.path, external: true } : { path: args.path, namespace: 'first-call' }));
    build.onLoad({ filter: /.*/, namespace: 'first-call' }, (args) => ({
      contents: LOADED_ON_FIRST_CALL[args.path].map((name) => `exports.${name} = (...args) => require(${JSON.stringify(args.path)}).${name}(...args);`).join('\n'),
      loader: 'js',
    }));
  },
};

/**
 * Nest's Logger and ConsoleLogger each build an Intl.DateTimeFormat when their modules load, for
 * the timestamps of lines that the services write through pino instead (the gateway prints only
 * errors and warnings): ICU's data made ~8 MB resident in every process, ~55 MB of the distributed
 * stack's summed RSS (issue 44). Bundled, each is built on its first timestamp. The replacement
 * keeps the files' lines (its constructor is a function declaration appended at the end); a Nest
 * that no longer has the statement fails the build, so that this is reviewed.
 */
const NEST_LOGGERS = /@nestjs[\\/]common[\\/]services[\\/](console-)?logger\.service\.js$/;
const EAGER_FORMATTER = 'const dateTimeFormatter = new Intl.DateTimeFormat(';
const LAZY_FORMATTER =
  '\nfunction LazyDateTimeFormat(locales, options) { let built; return { format: (time) => (built ??= new Intl.DateTimeFormat(locales, options)).format(time) }; }\n';

const lazyTimestampFormat = {
  name: 'lazy-timestamp-format',
  setup(build) {
    build.onLoad({ filter: NEST_LOGGERS }, (args) => {
      const code = readFileSync(args.path, 'utf8');
      if (!code.includes(EAGER_FORMATTER)) throw new Error(`${args.path}: this Nest logger no longer builds its formatter at load; review lazyTimestampFormat`);
      return { contents: code.replace(EAGER_FORMATTER, 'const dateTimeFormatter = new LazyDateTimeFormat(') + LAZY_FORMATTER, loader: 'js' };
    });
  },
};

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

/**
 * keepNames names every function again each time its expression runs, closures in hot paths
 * included (fastify's hooks, Nest's switchToHttp, one per request each): a defineProperty that
 * also changes the function's shape, 4-8 % of a service's CPU per request. Only a name esbuild
 * changed needs it (swc's `let X = class X` comes out as class X2, and Nest logs class names),
 * so the helper leaves a function alone when its name is already right, and arrow functions
 * (no prototype), whose names only a stack trace shows. The helper's line keeps its length and
 * the guarded one is a declaration appended at the end, so the source map stays exact.
 */
const NAME_HELPER = 'var __name=(target,value)=>__defProp(target,"name",{value,configurable:true});';
const GUARDED_NAME =
  'function __guardedName(target,value){return target.name===value||!target.prototype?target:__defProp(target,"name",{value,configurable:true})}';

function withGuardedNames(code, entry) {
  if (!code.includes(NAME_HELPER)) throw new Error(`${entry}: esbuild's __name helper changed; review NAME_HELPER`);
  const helper = 'var __name=__guardedName;'.padEnd(NAME_HELPER.length, ' ');
  const mapComment = code.lastIndexOf('\n//# sourceMappingURL=');
  return `${code.slice(0, mapComment).replace(NAME_HELPER, helper)}\n${GUARDED_NAME}${code.slice(mapComment)}`;
}

/**
 * The bundle is written inside the function CommonJS runs a module as, so that the runner compiles
 * the file's text as it reads it: a wrapper added at run time made V8 copy the whole source once
 * more while compiling (5-7 MB a process at boot). The wrapper has a line of its own, which the
 * map gains; the map's comment stays last.
 */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) {';
const wrapped = (code) => {
  const comment = code.lastIndexOf('//# sourceMappingURL=');
  const end = comment < 0 ? code.length : comment;
  return `${WRAPPER}\n${code.slice(0, end)}\n})\n${code.slice(end)}`;
};
const withWrapperLine = (text) => {
  const map = JSON.parse(text);
  return JSON.stringify({ ...map, mappings: `;${map.mappings}` });
};

const RUNNER = 'dist/libs/platform/src/bootstrap/bundle-runner.js';

/** The entry point's new body: the bundle beside it, through the runner. */
const entryStub = (entry) => `'use strict';
// Written by infra/tools/bundle-entry-points.mjs: this deployable's bundle, run with V8's code cache.
require('./${relative(dirname(entry), RUNNER)}').runBundle(require('node:path').join(__dirname, 'main.bundle.js'));
`;

const bundles = await Promise.all(
  entryPoints.map(async (entry) => {
    const { outputFiles } = await build({
      entryPoints: [entry],
      outfile: join(dirname(entry), 'main.bundle.js'),
      write: false,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: EXTERNAL,
      plugins: [onFirstCall, lazyTimestampFormat],
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
    for (const file of outputFiles) writeFileSync(file.path, file.path.endsWith('.js') ? wrapped(asAscii(withGuardedNames(file.text, entry))) : withWrapperLine(file.text));
    writeFileSync(entry, entryStub(entry));
    return join(dirname(entry), 'main.bundle.js');
  }),
);

// The cache of each bundle's top level (bundle-runner.ts, writeStartCache), taken under the flags
// the distributed launcher gives its children: V8 takes a cache only under the flags it was made with.
const { withSmallYoungGeneration } = createRequire(import.meta.url)('../../dist/infra/launcher/src/distributed.js');
execFileSync(process.execPath, [RUNNER, '--start-cache', ...bundles], {
  env: { ...process.env, NODE_OPTIONS: withSmallYoungGeneration(process.env.NODE_OPTIONS) },
  stdio: 'inherit',
});
