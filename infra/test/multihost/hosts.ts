import { ChildProcess, spawn, spawnSync } from 'node:child_process';

/**
 * Three "hosts" on this machine: one network namespace each, joined by veth pairs to a bridge in
 * the root namespace (where the test itself runs, so it reaches every host too). A namespace
 * isolates only the network: processes on every host still share the file system and the pid
 * space, so the test can SIGKILL a host's processes by id and read a shared data folder.
 *
 * Every name carries the pid of the test process (`mh<pid>...`), so a run killed before its
 * cleanup leaves names that the next run recognises as orphans and removes (`removeLeftovers`).
 * Needs root (CI runs as root): `ip netns add` fails otherwise, and the suite says so.
 */

export interface Host {
  /** h1, h2, h3. */
  name: string;
  /** The network namespace. */
  ns: string;
  /** The host's address on the shared bridge. */
  ip: string;
  /** The root-namespace end of the host's veth pair: taking it down cuts the host off. */
  link: string;
}

const PREFIX = 'mh';
const NAMESPACE = /^mh(\d+)-h\d$/;
const LINK = /^mh(\d+)(?:br|h\dx?)$/;

function ip(...args: string[]): string {
  const res = spawnSync('ip', args, { encoding: 'utf8' });
  if (res.error) throw new Error(`ip ${args.join(' ')}: ${res.error.message}`);
  if (res.status !== 0) throw new Error(`ip ${args.join(' ')} failed (${res.status}): ${res.stderr.trim()}`);
  return res.stdout;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Process ids inside a namespace (`ip netns pids`); none when it is gone. */
function pidsIn(ns: string): number[] {
  const res = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' });
  if (res.status !== 0) return [];
  return res.stdout.split(/\s+/).filter(Boolean).map(Number);
}

function killPids(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone already
    }
  }
}

/**
 * Namespaces, bridges and links left by an earlier run whose test process is dead (a killed
 * jest, a CI job cancelled mid-suite): their processes are SIGKILLed by id and the names deleted.
 * A concurrent live run's names are left alone.
 */
export function removeLeftovers(): string[] {
  const removed: string[] = [];
  const namespaces = ip('netns', 'list')
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter(Boolean);
  for (const ns of namespaces) {
    const owner = NAMESPACE.exec(ns)?.[1];
    if (!owner || alive(Number(owner))) continue;
    killPids(pidsIn(ns), 'SIGKILL');
    spawnSync('ip', ['netns', 'del', ns]);
    removed.push(ns);
  }
  const links = ip('-o', 'link', 'show')
    .split('\n')
    .map((line) => line.split(':')[1]?.trim().split('@')[0])
    .filter((name): name is string => Boolean(name));
  for (const link of links) {
    const owner = LINK.exec(link)?.[1];
    if (!owner || alive(Number(owner))) continue;
    spawnSync('ip', ['link', 'del', link]);
    removed.push(link);
  }
  return removed;
}

/** The hosts of one test run. */
export class Network {
  readonly hosts: Host[];
  readonly bridge: string;
  /** The test's own address on the bridge. */
  readonly rootIp: string;
  private built = false;
  /** The trap: a test process that exits without afterAll (an uncaught error, process.exit) still removes its hosts. */
  private readonly onExit = () => this.destroyNow();

  constructor(count: number) {
    const id = `${PREFIX}${process.pid}`;
    // One /24 per run, picked from the pid, so two runs on one machine would not share addresses.
    const net = `10.213.${process.pid % 250}`;
    this.bridge = `${id}br`;
    this.rootIp = `${net}.254`;
    this.hosts = Array.from({ length: count }, (_, i) => ({ name: `h${i + 1}`, ns: `${id}-h${i + 1}`, ip: `${net}.${i + 1}`, link: `${id}h${i + 1}` }));
  }

  host(name: string): Host {
    const host = this.hosts.find((h) => h.name === name);
    if (!host) throw new Error(`no host ${name}`);
    return host;
  }

  /** Builds the namespaces, the veth pairs and the bridge; `lo` is up in each namespace. */
  create(): void {
    this.built = true;
    process.once('exit', this.onExit);
    ip('link', 'add', this.bridge, 'type', 'bridge');
    // Where br_netfilter is loaded (a Docker host), bridged frames go through iptables' FORWARD
    // chain, often with a DROP policy: this bridge's are kept out of it (best effort: older kernels lack the option).
    spawnSync('ip', ['link', 'set', this.bridge, 'type', 'bridge', 'nf_call_iptables', '0', 'nf_call_ip6tables', '0', 'nf_call_arptables', '0']);
    ip('addr', 'add', `${this.rootIp}/24`, 'dev', this.bridge);
    ip('link', 'set', this.bridge, 'up');
    for (const host of this.hosts) {
      ip('netns', 'add', host.ns);
      ip('-n', host.ns, 'link', 'set', 'lo', 'up');
      const inside = `${host.link}x`;
      ip('link', 'add', host.link, 'type', 'veth', 'peer', 'name', inside);
      ip('link', 'set', inside, 'netns', host.ns);
      ip('-n', host.ns, 'link', 'set', inside, 'name', 'eth0');
      ip('-n', host.ns, 'addr', 'add', `${host.ip}/24`, 'dev', 'eth0');
      ip('-n', host.ns, 'link', 'set', 'eth0', 'up');
      ip('link', 'set', host.link, 'master', this.bridge);
      ip('link', 'set', host.link, 'up');
    }
  }

  /** Starts `command` inside the host's namespace (`ip netns exec` execs it: the child's pid is the command's). */
  spawn(host: Host, command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): ChildProcess {
    return spawn('ip', ['netns', 'exec', host.ns, command, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** Every process running on the host. */
  pids(host: Host): number[] {
    return pidsIn(host.ns);
  }

  /** SIGKILL to every process of the host, at once: the host died. Returns the pids killed. */
  killAll(host: Host): number[] {
    const pids = this.pids(host);
    killPids(pids, 'SIGKILL');
    return pids;
  }

  /** The host's cable pulled: its end of the bridge goes down, nothing reaches it or leaves it. */
  cut(host: Host): void {
    ip('link', 'set', host.link, 'down');
  }

  restore(host: Host): void {
    ip('link', 'set', host.link, 'up');
  }

  /** SIGTERM to every process of every host, SIGKILL after `graceMs`, then the namespaces and the bridge go. */
  async destroy(graceMs = 5_000): Promise<void> {
    if (!this.built) return;
    const present = new Set(ip('netns', 'list').split('\n').map((line) => line.split(' ')[0]));
    const hosts = this.hosts.filter((h) => present.has(h.ns));
    for (const host of hosts) {
      // A cut host must hear the SIGTERM's consequences too (closing connections): links up first.
      spawnSync('ip', ['link', 'set', host.link, 'up']);
      killPids(this.pids(host), 'SIGTERM');
    }
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && hosts.some((h) => this.pids(h).length > 0)) await new Promise((r) => setTimeout(r, 100));
    this.destroyNow();
  }

  /** Synchronously: SIGKILL to whatever runs on the hosts, namespaces and bridge deleted. */
  private destroyNow(): void {
    if (!this.built) return;
    for (const host of this.hosts) {
      killPids(this.pids(host), 'SIGKILL');
      spawnSync('ip', ['netns', 'del', host.ns]);
    }
    spawnSync('ip', ['link', 'del', this.bridge]);
    this.built = false;
    process.removeListener('exit', this.onExit);
  }
}

/** Whether this machine lets the test build namespaces (root, iproute2): checked before anything else. */
export function netnsProbe(): string | undefined {
  const probe = `${PREFIX}${process.pid}-h0`;
  const res = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (res.error) return `ip not found (${res.error.message}): install iproute2`;
  if (res.status !== 0) return `ip netns add failed: ${res.stderr.trim()} (the multi-host test needs root)`;
  spawnSync('ip', ['netns', 'del', probe]);
  return undefined;
}
