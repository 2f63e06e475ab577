/**
 * A module's memory probe in a process of its own (issue 30 §3): the module's instance lives in a
 * child Node process started with --expose-gc, its runs are driven over IPC, and the heap read
 * after forced collections is the child's. The harness's own allocations (other scenarios, the
 * reporters, a test runner's work in the same process) then never enter the measurement, so the
 * probe need not run alone: it runs beside the rest of the certification on the other core.
 *
 * The child (memory-child.ts) opens the instance through the part's own `openModuleMemory`, which
 * loads the module with the part's loader: the same factory, the same runs as in process. The
 * measurement itself runs there too (`measureHere`): 11,000 runs paced by the harness over IPC took
 * the client's probe 21.3 s beside the rest of `npm start` against 9.5 s alone.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { compiled, kitModule } from '../../core/package-root.ts';
import type { MemoryObservation } from '../checks/memory-retention.ts';
import type { MemoryReader } from './memory-load.ts';

/**
 * What the child is asked to open: `entry`, the file of a part's memory probe (client/memory.ts,
 * transformer/memory.ts), exports `openModuleMemory(...args)`, which loads the team's module with
 * the part's loader and returns its memory instance. The child knows no part: the part names itself.
 */
export type MemoryChildSpec = { entry: string; args: unknown[] };

/**
 * A module's memory instance, remote: a run or a read is a message to the child; `measureHere`, the
 * whole measurement (memory-load.ts measureRetention) run in the child, is one.
 */
export type RemoteMemory = {
  label: string;
  metric: MemoryReader['metric'];
  run: (n: number, slot: number) => Promise<string | undefined>;
  read: () => Promise<number | { error: string }>;
  measureHere: (remainingMs: number, unfinished: string, measured?: number) => Promise<MemoryObservation | { error: string }>;
  /** The probe's process (its withheld CPU time moves the runs' bound: memory-load.ts measureInstance). */
  pid: () => number | undefined;
  close: () => Promise<void>;
};

export type ChildReply = { id: number; ok?: { label: string }; why?: string | null; value?: number | { error: string }; observation?: MemoryObservation | { error: string }; error?: string };

// Compiled to dist/ the child is memory-child.js; run from source it is memory-child.ts.
const childPath = kitModule('harness/targets/memory-child.ts');
/**
 * The sources' child needs tsx from its first import; the compiled child registers it only when the
 * team's module is TypeScript (load-module.ts, core/typescript-loader.ts), so a JavaScript module's
 * probe does not pay tsx's hooks on every import of the kit's own.
 */
const childExecArgv = !compiled ? ['--expose-gc', '--import', createRequire(import.meta.url).resolve('tsx')] : ['--expose-gc'];

/** Start the child and open the instance; rejects with the child's own message when the module cannot be loaded. */
export async function openMemoryChild(spec: MemoryChildSpec, openBoundMs = 30_000): Promise<RemoteMemory> {
  const child: ChildProcess = fork(childPath, [], {
    execArgv: childExecArgv,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (s: string) => { if (stderr.length < 4096) stderr += s; });
  let nextId = 0;
  let gone: string | undefined;
  const pending = new Map<number, (reply: ChildReply) => void>();
  const fail = (why: string) => {
    gone ??= why;
    for (const [id, settle] of pending) settle({ id, error: gone });
    pending.clear();
  };
  child.on('message', (m: ChildReply) => { const settle = pending.get(m.id); pending.delete(m.id); settle?.(m); });
  child.on('error', (e) => fail(`the memory probe's process failed: ${e.message}`));
  child.on('exit', (code, signal) => fail(`the memory probe's process exited (${signal ?? `code ${String(code)}`})${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`));
  const ask = (message: Record<string, unknown>): Promise<ChildReply> => new Promise((resolve) => {
    const id = ++nextId;
    if (gone !== undefined) { resolve({ id, error: gone }); return; }
    pending.set(id, resolve);
    child.send({ ...message, id });
  });
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  };
  const timer = setTimeout(() => fail(`the memory probe's process did not open the module within ${openBoundMs} ms`), openBoundMs);
  const opened = await ask({ op: 'open', spec });
  clearTimeout(timer);
  if (!opened.ok) { await close(); throw new Error(opened.error ?? 'the memory probe\'s process gave no answer'); }
  return {
    label: opened.ok.label,
    metric: 'heap',
    run: async (n, slot) => { const r = await ask({ op: 'run', args: [n, slot] }); return r.error ?? r.why ?? undefined; },
    read: async () => { const r = await ask({ op: 'read' }); return r.value ?? { error: r.error ?? 'no reading' }; },
    measureHere: async (remainingMs, unfinished, measured) => {
      const r = await ask({ op: 'measure', remainingMs, unfinished, ...(measured !== undefined ? { measured } : {}) });
      return r.observation ?? { error: r.error ?? 'the memory probe\'s process gave no measurement' };
    },
    pid: () => (child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    close,
  };
}
