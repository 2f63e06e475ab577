/**
 * Starting and stopping gateway instances. Command mode runs the team's command through
 * `runChild` (its own process group, observed whatever it does) with the contract environment;
 * readiness is "accepts a TCP connection on 127.0.0.1:$PORT within a bound", on a socket the
 * command's own processes hold where Linux tells (port-owner.ts). A gateway that
 * exits, crashes or never listens is an outcome (`{ok: false, reason}`), never an exception.
 *
 * The command runs as `echo <marker> $$; exec sh -c '<command>'`: `$$` is the process group the
 * child runs in (runChild detaches it), which the harness needs to read the gateway's memory
 * from /proc and to stop it; the command itself runs unchanged.
 */
import net from 'node:net';
import { runChild, type ChildObservation } from '../../child.ts';
import type { CsrfMaterial } from './contract.ts';
import { pause, settledWithin } from './http.ts';
import { listenerOwner } from '../../port-owner.ts';
import { treeBusy, treeProcesses, treeWorks } from '../../run-delay.ts';
import { groupRss } from '../process-memory.ts';


export type GatewayInstance = {
  url: string;
  port: number;
  /** Resident memory of every process of the gateway, in bytes, or why it cannot be read. */
  rss: () => number | { error: string };
  /** Its process group's leader, where there is one (the memory runs' bound counts the CPU time withheld from it: fair-timer.ts). */
  pid?: number;
  /** Why the gateway is gone (it exited or crashed), or undefined while it runs. */
  gone: () => string | undefined;
  stop: () => Promise<void>;
  /** The valid CSRF token the runner got for this instance (docs/harness-gateway.md "CSRF"); set once it is ready. */
  csrf?: CsrfMaterial;
};

/** The instance's process group while it runs (undefined when in the harness's process or gone): the tree a fair bound reads (fair-timer.ts). */
export const processOf = (instance: GatewayInstance) => (): number | undefined => (instance.gone() === undefined ? instance.pid : undefined);

/** `portTaken`: it could not listen because another process took the free port first (a race of the harness's, not a defect). */
export type LaunchResult = { ok: true; instance: GatewayInstance } | { ok: false; reason: string; portTaken?: true };

/** Where the readiness bound comes from and how to raise it, for every message about it. */
export function startupBoundHint(readyMs: number): string {
  return `the readiness bound is ${readyMs / 1000} s: a slow start-up gets more with --startup-timeout SECONDS, or startupTimeoutMs in the config`;
}

/** Starts one gateway with this environment (PORT included) and waits until it is ready. */
export type GatewayLauncher = (env: Record<string, string>, bounds: { readyMs: number; label: string }) => Promise<LaunchResult>;

const pidMarker = 'adk-conformance-gateway-pgid';
/** The upper bound of one instance's life; stop() ends it long before. */
const lifetimeMs = 6 * 60 * 60 * 1000;
const live = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A harness that dies must not leave gateways listening behind it.
  process.once('exit', () => { for (const pgid of live) killGroup(pgid, 'SIGKILL'); });
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  if (pgid <= 1 || pgid === process.pid) return;
  try { process.kill(-pgid, signal); } catch { /* already gone */ }
}

/** How a server that could not listen says so: Node's EADDRINUSE, Python's `[Errno 98] ... address already in use`, Go's `bind: address already in use`. */
const portInUse = /EADDRINUSE|address already in use/i;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Ask for a TCP connection; resolves true when the gateway accepted it. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => { socket.removeAllListeners(); socket.destroy(); resolve(ok); };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function describeExit(label: string, obs: ChildObservation): string {
  const how = obs.spawnError ? `could not be started (${obs.spawnError})` : obs.signal ? `was killed by ${obs.signal}` : `exited with code ${obs.exitCode}`;
  const tail = obs.stderr.trim().split('\n').slice(-5).join(' | ').slice(-600);
  return `the ${label} gateway (\`${obs.command}\`) ${how}${tail ? `; stderr: ${tail}` : ''}`;
}

/** Command mode: the team's command in its own process group, with the contract environment. */
export function spawnLauncher(command: string, cwd?: string): GatewayLauncher {
  return async (env, bounds) => {
    installExitHook();
    const port = Number(env.PORT);
    let pgid: number | undefined;
    let observation: ChildObservation | undefined;
    const wrapped = `echo ${pidMarker} $$; exec sh -c ${shellQuote(command)}`;
    const done = runChild({
      command: wrapped,
      ...(cwd ? { cwd } : {}),
      env,
      input: [],
      holdStdinMs: lifetimeMs,
      timeoutMs: lifetimeMs,
      killGraceMs: 1000,
      stopWhen: (line) => {
        if (pgid === undefined && line.startsWith(`${pidMarker} `)) { pgid = Number(line.slice(pidMarker.length + 1)); live.add(pgid); }
        return false;
      },
    }).then((obs) => {
      observation = { ...obs, command };
      if (pgid !== undefined) live.delete(pgid);
      return observation;
    });

    const stop = async () => {
      if (observation || pgid === undefined) { await settledWithin(done, 3000); return; }
      const group = pgid;
      killGroup(group, 'SIGTERM');
      const exited = await settledWithin(done, 3000);
      if (!exited) {
        killGroup(group, 'SIGKILL');
        await settledWithin(done, 2000);
      }
      live.delete(group);
    };

    const deadline = performance.now() + bounds.readyMs;
    // Whether another process's socket listened on the port while the command started (port-owner.ts),
    // and how long the command's processes waited meanwhile, doing nothing.
    let heldElsewhere = false;
    let idleBesideMs = 0;
    for (;;) {
      if (observation) return { ok: false, reason: `${describeExit(bounds.label, observation)} before accepting connections on port ${port}`, ...(heldElsewhere || portInUse.test(observation.stderr) ? { portTaken: true as const } : {}) };
      // The wrapper's first line (the process group) comes before the command runs; the owner is judged once it has.
      if (pgid !== undefined && await accepts(port)) {
        const owner = listenerOwner(port, pgid);
        if (owner.kind !== 'elsewhere') break;
        // Not the command's socket: a stranger took the free port (the command fails to listen and
        // exits, and the runner starts it again on another port), or a container runtime forwards
        // the port for it (`docker run -p`), while the command's own processes wait. A tree that did
        // no work for a second (and is not in a disk wait now) is taken to serve through such a
        // forwarder; when the socket's process was there before the command, only after 5 s of that
        // (a slow start-up that waits on the network must not be taken for one; a rootless
        // runtime's forwarder is long-lived).
        heldElsewhere = true;
        const waits = !(await treeWorks(pgid, 1000)) && !observation && treeProcesses(pgid).length > 0 && !treeBusy(pgid);
        idleBesideMs = waits ? idleBesideMs + 1000 : 0;
        if (waits && (!owner.older || idleBesideMs >= 5000)) break;
      }
      if (performance.now() > deadline) {
        await stop();
        if (heldElsewhere) return { ok: false, reason: `timed out: another process listened on 127.0.0.1:${port} while the ${bounds.label} gateway (\`${command}\`) started, and the gateway did not within ${bounds.readyMs} ms`, portTaken: true };
        return { ok: false, reason: `timed out: the ${bounds.label} gateway (\`${command}\`) did not accept a TCP connection on 127.0.0.1:${port} within ${bounds.readyMs} ms (it must listen on $PORT; ${startupBoundHint(bounds.readyMs)})` };
      }
      await pause(50);
    }
    const instance: GatewayInstance = {
      url: `http://127.0.0.1:${port}`,
      port,
      rss: () => (pgid === undefined ? { error: 'the gateway\'s process group is unknown' } : groupRss(pgid)),
      ...(pgid !== undefined ? { pid: pgid } : {}),
      gone: () => (observation ? describeExit(bounds.label, observation) : undefined),
      stop,
    };
    return { ok: true, instance };
  };
}

/** Ports freePort handed out, and when: the kernel may give a port it just freed to the next `listen(0)`, and two instances started at once must not get the same one. */
const handedOut = new Map<number, number>();
const handedOutMs = 60_000;

/** A port that was free a moment ago (the kernel's choice), not one this process handed out in the last minute, for $PORT. */
export async function freePort(): Promise<number> {
  const now = performance.now();
  for (const [port, at] of handedOut) if (now - at > handedOutMs) handedOut.delete(port);
  for (let attempt = 0; ; attempt++) {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
    const address = server.address();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (address === null || typeof address === 'string') throw new Error('freePort: the kernel gave no TCP address');
    if (!handedOut.has(address.port) || attempt >= 8) {
      handedOut.set(address.port, now);
      return address.port;
    }
  }
}

/**
 * A port on 127.0.0.1 that refuses connections and stays refused: a low port nothing listens on
 * (checked), which the kernel never hands out for `listen(0)`. A free ephemeral port (freePort)
 * can be taken a moment later by another server of the same process (the mutant suite runs
 * several certifications at once), and then the "refused" upstream answers HTTP.
 */
export async function refusedPort(): Promise<number> {
  for (const port of [1, 9, 19, 39, 47, 49]) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(false); });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  return freePort();
}
