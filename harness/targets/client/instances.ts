/**
 * Where a client's runs go besides a fresh process or object per run (issue 30 §1): the module
 * loaded (again, under another URL, for a fresh instance), and the instances of the long-lived probe
 * (long-lived.ts): for a session-form command, session processes; for a module, ONE object
 * from createClient behind a base URL that serves every byte case by the run's sessionId.
 */
import { existsSync } from 'node:fs';
import { openSessionPool, type SessionPool } from '../../session.ts';
import { waitForStartup } from '../../fair-timer.ts';
import { caseAnswer, caseIdOf, serveCases, type ByteCase } from './cases.ts';
import { answerInProcess } from './in-process-fetch.ts';
import { driveClientCommand, driveClientModule, driveClientUnstalled, watchingTheLoop, type ClientFactory, type ClientWindows } from './drive.ts';
import { clientLongLivedProbeId, isolationCases, type ClientInstance, type ClientLongLivedDeps } from './long-lived.ts';
import type { RunEnv } from '../types.ts';
import { exportOf, importModule } from '../load-module.ts';

/** The run request of a byte case: its id is the session, which names the case to the case server. */
export const caseRequest = (c: ByteCase): Record<string, unknown> => ({ appName: 'client_byte_case', userId: 'u1', sessionId: c.id, newMessage: { role: 'user', parts: [{ text: c.id }] } });

/** Import a module under the client module contract; `instance`: import it afresh (another URL), so its top-level state is new. */
export async function loadClientModule(path: string, instance?: number): Promise<ClientFactory> {
  if (!existsSync(path)) throw new Error(`client module ${path} does not exist; pass the path of a module exporting createClient (docs/client-contract.md "Module contract")`);
  const mod = await importModule(path, instance);
  const create = exportOf(mod, 'createClient');
  if (typeof create !== 'function') throw new Error(`client module ${path} exports no createClient function; export createClient({baseUrl, idleMs, graceMs, callIdleMs}) => {run(request, onRecord, signal)} (docs/client-contract.md "Module contract")`);
  return create as ClientFactory;
}

/**
 * Whether a client module reports parsed values: `export const recordForm = 'parsed'` (or on the
 * default export, or on createClient), for clients built on libraries that yield event objects.
 */
export async function declaresParsedForm(path: string): Promise<boolean> {
  const mod = await importModule(path);
  const create = exportOf(mod, 'createClient') as { recordForm?: unknown } | undefined;
  const declared = exportOf(mod, 'recordForm') ?? create?.recordForm;
  if (declared !== undefined && declared !== 'parsed' && declared !== 'raw') throw new Error(`client module ${path} exports recordForm ${JSON.stringify(declared)}; give 'parsed' (records {"value": <the parsed data>}) or 'raw' (records {"data": "<text>"}, the default) (docs/client-contract.md "Parsed values")`);
  return declared === 'parsed';
}

export type InstanceOptions = {
  target: { command: string } | { module: string };
  windows: ClientWindows;
  boundOf: (env: RunEnv) => number;
  /** The runner's session pool once start() found the session form; the start-up bound for new processes. */
  session: () => { pool?: SessionPool; startupBoundMs: number };
  /** The module as start() loaded it. */
  loaded: () => ClientFactory;
  /** The isolation probe's longest prior history (ClientRunnerOptions.isolationHistory). */
  historyMax?: number;
};

export function longLivedDeps(o: InstanceOptions): ClientLongLivedDeps {
  const { target, windows, boundOf } = o;
  let freshModules = 0;
  // Each case is read as the byte probe reads it, without its stdin lead (a session process is up already).
  const commandInstance = (command: string, sessions: SessionPool): ClientInstance => ({
    // Run again when the harness's late write let the client's clock end it (driveClientUnstalled): a stall is no order's doing.
    read: async (c, env) => (await driveClientUnstalled(() => driveClientCommand(command, { chunks: c.chunks, transport: c.transport ?? 'eof', windows, boundMs: boundOf(env), ...(c.answer ? { answer: c.answer } : {}), runChild: sessions.runChild }), windows, env.signal)).driven,
    close: () => sessions.close(),
  });
  // The thousands of streams of the orders are answered through the global fetch in this process, as the
  // memory probe's are (in-process-fetch.ts); a client that does not call it reaches the case server.
  const byId = new Map(isolationCases.map((c) => [c.id, c]));
  const moduleInstance = async (create: ClientFactory): Promise<ClientInstance> => {
    const server = await serveCases(isolationCases);
    const local = answerInProcess(server.url, (body, url) => caseAnswer(byId.get(caseIdOf(new URL(url).pathname, body) ?? '')));
    // ONE object for every run of this instance, as an app keeps one client: createClient is called once
    // (after the fetch is in place, so a client that keeps the global fetch it was created with gets it).
    let client: ReturnType<ClientFactory>;
    try {
      client = create({ baseUrl: server.url, ...windows });
    } catch (error) {
      local.restore();
      await server.close();
      throw error;
    }
    return {
      read: async (c, env) => (await driveClientUnstalled(() => watchingTheLoop(() => driveClientModule(() => client, { baseUrl: server.url, request: caseRequest(c), windows, boundMs: boundOf(env), signal: env.signal })), windows, env.signal)).driven,
      close: async () => { local.restore(); await server.close(); },
    };
  };
  // A new session process's start-up is not the probe's time: the probe's bound moves while it waits (waitForStartup).
  const pool = async (command: string, concurrent: number) => {
    const p = openSessionPool({ command, part: 'client', startupTimeoutMs: o.session().startupBoundMs, processes: 1, runsPerProcess: concurrent, killGraceMs: 500 });
    await waitForStartup(p.ready());
    return p;
  };
  return {
    shared: async (concurrent) => ('command' in target ? commandInstance(target.command, await pool(target.command, concurrent)) : moduleInstance(o.loaded())),
    get fresh() {
      if ('command' in target) return o.session().pool ? async () => commandInstance(target.command, await pool(target.command, 1)) : undefined;
      return async () => moduleInstance(await loadClientModule(target.module, ++freshModules));
    },
    get instanceLabel() { return 'command' in target ? (o.session().pool ? 'one session process' : 'a fresh process per stream') : 'one client object'; },
    replay: (seed) => `npx adk-conformance run ${'command' in target ? `--client-cmd '${target.command}'` : `--client-module ${target.module}`} --grep probe:${clientLongLivedProbeId} --seed ${seed}`,
    ...(o.historyMax !== undefined ? { historyMax: o.historyMax } : {}),
  };
}
