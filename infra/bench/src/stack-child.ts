// The bench's child processes (servers.ts, forked): the embedded stack, the distributed profile's
// control child, the raw server. Shared by bench.ts and consistency-windows.ts.
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { ChildMessage } from './servers';

export interface Started {
  child: ChildProcess;
  url: string;
  /** Fork to ready, ms. */
  readyMs: number;
  /** The child's own start (ChildMessage.bootMs), ms; NaN for the raw server. */
  bootMs: number;
}

export function startChild(args: string[], env: Record<string, string>, execArgv: string[] = []): Promise<Started> {
  const forked = performance.now();
  // The children run servers.ts alone: the stack's boot does not load the load generators.
  const child = fork(join(__dirname, 'servers.js'), args, { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
    child.on('message', (msg: unknown) => {
      const { ready, bootMs } = msg as ChildMessage;
      if (ready) resolve({ child, url: ready, readyMs: Math.round(performance.now() - forked), bootMs: bootMs ?? NaN });
    });
  });
}

/** SIGTERM (the stack closes its stores) and the exit; at once for a child already gone. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

/** Sends `message` and resolves with the first reply `accept` takes. */
export function askFor<T>(child: ChildProcess, message: unknown, accept: (msg: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (msg: unknown) => {
      const value = accept(msg);
      if (value === undefined) return;
      child.off('message', onMessage);
      resolve(value);
    };
    child.on('message', onMessage);
    child.send(message as object);
  });
}

export function ask(child: ChildProcess, message: unknown): Promise<void> {
  return askFor(child, message, (msg) => (msg === 'settled' ? true : undefined)).then(() => undefined);
}
