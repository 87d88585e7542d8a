import { spawnSync } from 'node:child_process';

/**
 * The built server (`dist/`) for a suite that starts it as processes of its own. `npm test` builds
 * it once before jest and says so (`SERVER_BUILT=1`): suites building again in parallel rewrote
 * `dist/` while another suite's processes loaded it, and one read a module half written (seen in
 * CI: an export "is not a function"). A suite run on its own builds it first.
 */
export function buildServer(root: string): void {
  if (process.env.SERVER_BUILT === '1') return;
  const build = spawnSync('npm', ['run', 'build:server'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:server failed:\n${build.stdout}\n${build.stderr}`);
}
