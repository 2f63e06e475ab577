/**
 * A free port the harness picked can be taken by another server before the command listens on it.
 * Readiness used to be "the port accepts a connection", so the stranger was certified: the clean-clone
 * CI of 0a94870 sent the `alt` instance's timing probe to a server that answered HTTP 401, while the
 * reference gateway itself died of EADDRINUSE. Readiness now asks whose socket listens (port-owner.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerOwner } from '../../port-owner.ts';
import { freePort, spawnLauncher } from './instances.ts';

const linux = existsSync('/proc/net/tcp');
let squatter: net.Server;
let takenPort = 0;
beforeAll(async () => {
  squatter = net.createServer((socket) => { socket.on('error', () => undefined); socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n'); });
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  takenPort = (squatter.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => squatter.close(resolve));
});

/** A command that works for `busyMs` (a start-up), then listens on $PORT; it exits 3 without a word when it cannot. */
const listener = (busyMs: number) => `node -e "const t = Date.now(); while (Date.now() - t < ${busyMs}) {} require('net').createServer().on('error', () => process.exit(3)).listen(Number(process.env.PORT), '127.0.0.1')"`;

describe.skipIf(!linux)('whose socket listens on the port', () => {
  it('tells a socket of the tree from one of another process', async () => {
    expect(listenerOwner(takenPort, process.pid)).toEqual({ kind: 'tree' });
    // A child's tree does not hold its parent's socket, which was there before it.
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      expect(listenerOwner(takenPort, child.pid as number)).toEqual({ kind: 'elsewhere', older: true });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a command that cannot listen because a stranger holds its port is not ready; the port was taken', async () => {
    const r = await spawnLauncher(listener(400))({ PORT: String(takenPort) }, { readyMs: 10_000, label: 'alt' });
    expect(r.ok, JSON.stringify(r)).toBe(false);
    // The command said nothing of EADDRINUSE: the harness saw the stranger's socket itself.
    expect(r).toMatchObject({ ok: false, portTaken: true });
  });

  it('nor is one that first waits two seconds (on its network, say), then cannot listen: the stranger was there before it', async () => {
    const r = await spawnLauncher(`sleep 2; ${listener(0)}`)({ PORT: String(takenPort) }, { readyMs: 15_000, label: 'alt' });
    expect(r).toMatchObject({ ok: false, portTaken: true });
  });

  it('a command that listens itself is ready on its own socket', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => { const p = (s.address() as AddressInfo).port; s.close(() => resolve(p)); });
    });
    const r = await spawnLauncher(listener(100))({ PORT: String(port) }, { readyMs: 10_000, label: 'main' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (r.ok) {
      expect(listenerOwner(port, r.instance.pid as number)).toEqual({ kind: 'tree' });
      await r.instance.stop();
    }
  });

  it('a command that waits while a process started after it serves its port (a container runtime forwarding it) is ready', async () => {
    const port = await freePort();
    const launched = spawnLauncher('sleep 30')({ PORT: String(port) }, { readyMs: 10_000, label: 'main' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const forwarder = spawn('node', ['-e', `require('net').createServer((s) => s.destroy()).listen(${port}, '127.0.0.1')`], { stdio: 'ignore' });
    try {
      const r = await launched;
      expect(r.ok, JSON.stringify(r)).toBe(true);
      if (r.ok) {
        expect(listenerOwner(port, r.instance.pid as number)).toEqual({ kind: 'elsewhere', older: false });
        await r.instance.stop();
      }
    } finally {
      forwarder.kill('SIGKILL');
    }
  });

  it('and one whose port a process older than it serves (a rootless runtime\'s long-lived forwarder) too, after it waited longer', async () => {
    const r = await spawnLauncher('sleep 30')({ PORT: String(takenPort) }, { readyMs: 15_000, label: 'main' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (r.ok) await r.instance.stop();
  });
});
