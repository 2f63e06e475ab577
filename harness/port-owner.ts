/**
 * Who listens on a TCP port: a process of the tree the harness started, or some other process.
 * "It accepts a connection on $PORT" alone cannot tell: a port the harness found free can be taken
 * by another server before the implementation listens (the suite runs many certifications at once),
 * and then every request of a probe goes to a stranger. The clean-clone CI of 0a94870 certified the
 * reference gateway's `alt` instance that way: the stranger answered HTTP 401 to its RS256 token,
 * the gateway itself died of EADDRINUSE after the probe had finished.
 *
 * Linux only (/proc/net/tcp{,6} and /proc/<pid>/fd); elsewhere the owner is `unknown` and readiness
 * is the connection alone, as before.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { treeProcesses } from './run-delay.ts';

/**
 * `tree`: a process of the tree holds the listening socket; `elsewhere`: a socket listens and none of
 * the tree's processes holds it, `older` when the process that does was started before the tree's
 * root (a stranger that was there first, never a forwarder started for the command's container).
 */
export type ListenerOwner = { kind: 'tree' } | { kind: 'elsewhere'; older: boolean } | { kind: 'unknown' };

/** The state column of /proc/net/tcp for a listening socket (include/net/tcp_states.h: TCP_LISTEN = 10). */
const listenState = '0A';

/** Inodes of the sockets listening on `port`, whatever their local address, IPv4 or IPv6; undefined where /proc/net has no table. */
function listeningInodes(port: number): Set<string> | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  let read = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try { text = readFileSync(file, 'latin1'); } catch { continue; }
    read = true;
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      const local = f[1];
      if (f.length < 10 || f[3] !== listenState || local === undefined) continue;
      if (local.slice(local.lastIndexOf(':') + 1) === hexPort) inodes.add(f[9] as string);
    }
  }
  return read ? inodes : undefined;
}

/** Whether process `pid` has one of these socket inodes open (false when it may not be read). */
function holds(pid: number, inodes: Set<string>): boolean {
  let fds: string[];
  try { fds = readdirSync(`/proc/${pid}/fd`); } catch { return false; }
  for (const fd of fds) {
    let target: string;
    try { target = readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { continue; }
    if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return true;
  }
  return false;
}

/** When a process started, in clock ticks since boot (/proc/<pid>/stat field 22); undefined when gone. */
function startTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The fields after the command's name, which may hold spaces and parentheses: state is field 3, starttime 22.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** The first process found outside `tree` that holds one of these inodes (those it may read only). */
function holderOutside(tree: ReadonlySet<number>, inodes: Set<string>): number | undefined {
  let pids: string[];
  try { pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)); } catch { return undefined; }
  for (const name of pids) {
    const pid = Number(name);
    if (!tree.has(pid) && holds(pid, inodes)) return pid;
  }
  return undefined;
}

/** Who listens on `port`, as seen from the tree under `root` (processes it may not read are skipped). */
export function listenerOwner(port: number, root: number): ListenerOwner {
  const inodes = listeningInodes(port);
  // No table, or a connection accepted with no listening socket in this network namespace: nothing to tell.
  if (inodes === undefined || inodes.size === 0) return { kind: 'unknown' };
  const tree = treeProcesses(root);
  if (tree.some((pid) => holds(pid, inodes))) return { kind: 'tree' };
  const holder = holderOutside(new Set(tree), inodes);
  const [born, rootBorn] = [holder === undefined ? undefined : startTicks(holder), startTicks(root)];
  return { kind: 'elsewhere', older: born !== undefined && rootBorn !== undefined && born < rootBorn };
}
