#!/usr/bin/env node
// Records other platforms' optional native packages in package-lock.json.
//
// The registry this project installs from holds only Linux builds of packages such as
// @swc/core-darwin-arm64; npm then writes a lock file without them, and `npm ci` refuses
// that lock file ("Missing: ... from lock file"). An entry carrying the package's os/cpu
// lets `npm ci` skip it as incompatible without fetching it. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

const lockPath = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;
let added = 0;

for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[base] || packages[hoisted]) continue;
    const parts = name.split(/[/-]/);
    const os = OS.filter((o) => parts.includes(o) || (o === 'win32' && parts.includes('windows')));
    const cpu = CPU.filter((c) => parts.includes(c) || (c === 'arm' && parts.includes('gnueabihf')));
    if (os.length === 0 && cpu.length === 0) continue; // not a platform build: leave npm's choice alone
    packages[hoisted] = {
      version: String(spec).replace(/^[\^~=]/, ''),
      dev: entry.dev || undefined,
      optional: true,
      ...(os.length && { os }),
      ...(cpu.length && { cpu }),
    };
    added++;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`lock-foreign-platforms: recorded ${added} optional platform package(s)`);
