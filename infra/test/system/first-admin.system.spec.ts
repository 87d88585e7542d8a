import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import request from 'supertest';
import { buildServer } from '@app/testing';

/**
 * Issue 45 §1 as distributed-local runs it: two processes of the auth service sharing one SQLite
 * file (the replicas of `npm run start:distributed -- --replicas auth=2`). Twenty sign-ups at once
 * on the empty site, spread over both, make exactly one admin; counting accounts before inserting
 * made two or more.
 */

const ROOT = resolve(__dirname, '../../..');
const SIGN_UPS = 20;

describe('the first admin with two auth processes on one SQLite file', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];
  const urls: string[] = [];

  /** Starts one auth process on a port the kernel gives it; resolves with its address once it listens. */
  function startAuth(): Promise<string> {
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', BUS: 'memory', STORE: 'sqlite', JWT_SECRET: 'first-admin-spec-secret-of-32-characters', LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, ['dist/services/auth/src/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const lines: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    return new Promise((resolveUrl, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        const url = /"url":"(http:\/\/[^"]+)"/.exec(line)?.[1];
        if (url && line.includes('listening on')) resolveUrl(url);
      });
      child.once('exit', (code) => reject(new Error(`auth exited with ${code} before it listened:\n${lines.join('\n')}`)));
    });
  }

  beforeAll(async () => {
    buildServer(ROOT);
    dataDir = mkdtempSync(join(tmpdir(), 'first-admin-'));
    // One after the other: the first creates the file and its tables, as the launcher's start order does.
    urls.push(await startAuth());
    urls.push(await startAuth());
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      children.map((child) => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM'))))),
    );
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`makes exactly one admin of ${SIGN_UPS} concurrent sign-ups, and a member of the next`, async () => {
    const replies = await Promise.all(
      Array.from({ length: SIGN_UPS }, (_, i) =>
        request(urls[i % 2]).post('/api/auth/register').send({ email: `racer${i}@example.com`, name: `Racer ${i}`, password: 'lamp-desk-battery-42' }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(SIGN_UPS).fill(201));
    expect(replies.map((r) => r.body.data.user.role).filter((role) => role === 'admin')).toHaveLength(1);
    const later = await request(urls[1]).post('/api/auth/register').send({ email: 'late@example.com', name: 'Late', password: 'lamp-desk-battery-42' });
    expect(later.body.data.user.role).toBe('member');
  });
});
