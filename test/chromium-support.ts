/**
 * Headless Chromium for page tests, driven over the DevTools protocol on a pipe: the same way
 * test/report-html-browser.test.ts drives report.html (Debian's `chromium`, no npm dependency;
 * a missing Chromium fails with how to install it, never skips). Kept here so tests of other
 * pages (tap/live-ui.test.ts) share one client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

export const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core over the whole document with WCAG 2.0/2.1 A and AA rules: resolves to the violations as JSON text. */
export const axeAudit = `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => JSON.stringify(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))))`;

export function chromiumPath(): string {
  const found = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  if (!found) throw new Error('headless Chromium is required by this test and is not installed: run `apt-get update && apt-get install -y chromium` (as .ci/run does when `command -v chromium` fails)');
  return found;
}

export const baseFlags = (profile: string) => ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`];

/** A hook or test timeout that covers startCdp's start-up bounds (90 s each for the browser and its first tab) with room for the steps after. */
export const startCdpTimeout = 240_000;

export type CdpMessage = { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown; sessionId?: string };

export type Cdp = {
  child: ChildProcess;
  send: (method: string, params?: Record<string, unknown>, sessionId?: string, ms?: number) => Promise<Record<string, unknown>>;
  next: (method: string) => Promise<void>;
  events: CdpMessage[];
  /** Close the browser and remove its profile. */
  stop: () => Promise<void>;
};

/** A minimal DevTools-protocol client over --remote-debugging-pipe (NUL-delimited JSON on fds 3 and 4), resolved once the browser has opened a tab; call it from a hook or test whose timeout is startCdpTimeout. */
export async function startCdp(): Promise<Cdp> {
  const binary = chromiumPath();
  const profile = await mkdtemp(join(tmpdir(), 'adk-chromium-'));
  const child: ChildProcess = spawn(binary, [...baseFlags(profile), '--remote-debugging-pipe', '--window-size=1280,900', 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  const pending = new Map<number, (m: CdpMessage) => void>();
  const events: CdpMessage[] = [];
  const waiters: { method: string; resolve: () => void }[] = [];
  let buffer = '';
  let nextId = 1;
  output.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let end = buffer.indexOf('\0'); end >= 0; end = buffer.indexOf('\0')) {
      const message = JSON.parse(buffer.slice(0, end)) as CdpMessage;
      buffer = buffer.slice(end + 1);
      if (message.id !== undefined) { pending.get(message.id)?.(message); pending.delete(message.id); continue; }
      events.push(message);
      for (const w of waiters.filter((w) => w.method === message.method)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
    }
  });
  // A bound on every wait so a broken browser fails the test instead of hanging it. 45 s, not 20: in
  // clean-clone CI (four test workers on two cores) Chromium once took over 20 s to open its first tab.
  const bounded = <T>(promise: Promise<T>, what: string, ms = 45_000) => new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Chromium did not answer ${what} within ${ms / 1000} s`)), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e: unknown) => { clearTimeout(timer); reject(e); });
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string, ms?: number) => bounded(new Promise<Record<string, unknown>>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, (m) => (m.error ? reject(new Error(`${method}: ${JSON.stringify(m.error)}`)) : resolve(m.result ?? {})));
    input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
  }), method, ms);
  const next = (method: string) => bounded(new Promise<void>((resolve) => waiters.push({ method, resolve })), method);
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await send('Browser.close').catch(() => undefined);
      child.kill();
      await exited;
    }
    // Chromium's helper processes can still be writing into the profile as the browser exits
    // (ENOTEMPTY mid-removal): retry, and never fail a test over a leftover temporary folder.
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => undefined);
  };
  // Start-up is the machine's, not the page's: wait for the browser and its first tab here, under a
  // longer bound, so a test's own steps are timed on a browser that is already up.
  try {
    await send('Browser.getVersion', {}, undefined, 90_000);
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' }, undefined, 90_000);
    await send('Target.closeTarget', { targetId });
  } catch (error) {
    const exited = child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
    child.kill('SIGKILL');
    await exited;
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => undefined);
    throw error;
  }
  return { child, send, next, events, stop };
}

export type PageSession = {
  sessionId: string;
  /** Evaluate an expression in the page; resolves to its value (by value). */
  evaluate: <T>(expression: string, awaitPromise?: boolean) => Promise<T>;
  /** Evaluate until `predicate` holds of the value, polling at most `tries` times: for pages that change as data streams in. */
  waitFor: <T>(expression: string, predicate: (value: T) => boolean, what: string, tries?: number) => Promise<T>;
};

/** A new tab on `url`, loaded; `bypassCsp` lets a test inject an audit tool the page's own policy would refuse. */
export async function openPage(cdp: Cdp, url: string, options: { bypassCsp?: boolean } = {}): Promise<PageSession> {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true }) as { sessionId: string };
  await cdp.send('Network.enable', {}, sessionId);
  await cdp.send('Page.enable', {}, sessionId);
  if (options.bypassCsp) await cdp.send('Page.setBypassCSP', { enabled: true }, sessionId);
  const loaded = cdp.next('Page.loadEventFired');
  await cdp.send('Page.navigate', { url }, sessionId);
  await loaded;
  const evaluate = async <T>(expression: string, awaitPromise = false): Promise<T> => {
    const reply = await cdp.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise }, sessionId) as { result: { value: T }; exceptionDetails?: unknown };
    if (reply.exceptionDetails) throw new Error(`page threw evaluating ${expression.slice(0, 80)}: ${JSON.stringify(reply.exceptionDetails)}`);
    return reply.result.value;
  };
  const waitFor = async <T>(expression: string, predicate: (value: T) => boolean, what: string, tries = 200): Promise<T> => {
    let last: T | undefined;
    for (let i = 0; i < tries; i++) {
      last = await evaluate<T>(expression);
      if (predicate(last)) return last;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the page never showed ${what}; last seen: ${JSON.stringify(last)}`);
  };
  return { sessionId, evaluate, waitFor };
}
