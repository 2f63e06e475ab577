/**
 * Wrap a one-shot per-line filter in the session form (docs/session-protocol.md): one process, many
 * runs. `makeRun(env, write)` gives one run's `onLine(text)` and `onEnd()`; `write(text)` writes one
 * output line of that run. Without $ADK_CONFORMANCE_PROTOCOL=session it runs once over stdin/stdout.
 */
import { createInterface } from 'node:readline';

export type Implementation = { name: string; version: string; language: string; parts: string[]; dialects?: string[] };
export type MakeRun = (env: Record<string, string | undefined>, write: (text: string) => void) => { onLine: (text: string) => void; onEnd: () => void };

export async function serveOrRunOnce(implementation: Implementation, makeRun: MakeRun): Promise<void> {
  const out = (text: string) => { process.stdout.write(`${text}\n`); };
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  if (process.env.ADK_CONFORMANCE_PROTOCOL !== 'session') {
    const run = makeRun(process.env, out);
    for await (const line of lines) run.onLine(line);
    run.onEnd();
    return;
  }
  const send = (message: object) => out(JSON.stringify(message));
  const runs = new Map<string, ReturnType<MakeRun>>();
  for await (const raw of lines) {
    const m = JSON.parse(raw) as { cmd: string; run?: string; env?: Record<string, string>; text?: string; bytes?: string };
    const run = m.run ?? '';
    if (m.cmd === 'start') send({ cmd: 'ready', protocol: 1, implementation });
    else if (m.cmd === 'open') runs.set(run, makeRun(m.env ?? {}, (text) => send({ run, line: text })));
    else if (m.cmd === 'input') runs.get(run)?.onLine(m.text ?? Buffer.from(m.bytes ?? '', 'base64').toString('utf8'));
    else if (m.cmd === 'end' && runs.has(run)) { runs.get(run)?.onEnd(); runs.delete(run); send({ run, exit: 0 }); }
    else if (m.cmd === 'cancel') runs.delete(run);
    else if (m.cmd === 'stop') return;
  }
}
