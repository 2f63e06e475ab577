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

/** `tree`: a process of the tree holds the listening socket; `elsewhere`: a socket listens and none of the tree's processes holds it. */
export type ListenerOwner = 'tree' | 'elsewhere' | 'unknown';

/** The state column of /proc/net/tcp for a listening socket (include/net/tcp_states.h: TCP_LISTEN = 10). */
const listenState = '0A';

/** Inodes of the sockets listening on `port`, whatever their local address, IPv4 or IPv6; undefined where /proc/net has no table. */
export function listeningInodes(port: number): Set<string> | undefined {
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

/** Whether a process of the tree under `root` has one of these socket inodes open (processes it may not read are skipped). */
export function treeHolds(root: number, inodes: Set<string>): boolean {
  for (const pid of treeProcesses(root)) {
    let fds: string[];
    try { fds = readdirSync(`/proc/${pid}/fd`); } catch { continue; }
    for (const fd of fds) {
      let target: string;
      try { target = readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { continue; }
      if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return true;
    }
  }
  return false;
}

/** Who listens on `port`, as seen from the tree under `root`. */
export function listenerOwner(port: number, root: number): ListenerOwner {
  const inodes = listeningInodes(port);
  // No table, or a connection accepted with no listening socket in this network namespace: nothing to tell.
  if (inodes === undefined || inodes.size === 0) return 'unknown';
  return treeHolds(root, inodes) ? 'tree' : 'elsewhere';
}
