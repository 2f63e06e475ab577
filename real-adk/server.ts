/**
 * The REAL devtools `AdkApiServer` (Express, its own routes, its own Runner and
 * InMemorySessionService) in this process, on 127.0.0.1, serving scripted agents through an
 * in-process agent loader (no agents directory, no esbuild bundling). One server serves every
 * scenario: the app name selects the scenario, and `arm` resets its script before each run.
 */
import type { BaseAgent, Event, Session } from '@google/adk';
import { createAgentBuilder, type RunStates } from './agents.ts';
import type { AdkModules } from './load.ts';
import type { RealScript, SessionFault } from './plays.ts';

export type RealAdkServer = {
  url: string;
  /** Reset the app's script for the next run on `sessionId`, with the run's session fault if it scripts one. */
  arm: (script: RealScript, sessionId: string, timeScale: number) => void;
  close: () => Promise<void>;
};

/** What the devtools AgentLoader says for an app it does not have (its template, dev/src/utils/agent_loader.ts). */
function notFound(name: string, dir: string, available: string[]): Error {
  return new Error(`Agent '${name}' not found in ${dir}. Available agents: ${available.join(', ') || '(none)'}`);
}

const asyncDispose: symbol = (Symbol as { asyncDispose?: symbol }).asyncDispose ?? Symbol.for('Symbol.asyncDispose');

/** The devtools server logs every request at INFO and every failed run at ERROR; the fidelity report is the output. */
const quietLogger = { setLogLevel() {}, log() {}, debug() {}, info() {}, warn() {}, error() {} };

async function withoutConsoleLog<T>(work: () => Promise<T>): Promise<T> {
  // start() and stop() print a banner box with console.log; the command's own output stays parseable.
  const original = console.log;
  console.log = () => {};
  try { return await work(); } finally { console.log = original; }
}

export async function startRealAdk(m: AdkModules, scripts: ReadonlyMap<string, RealScript>): Promise<RealAdkServer> {
  const states: RunStates = new Map();
  const builder = createAgentBuilder(m, states);
  const agents = new Map<string, BaseAgent>();
  const faults = new Map<string, SessionFault & { seen: number }>();
  let lookup: { dir: string; available: string[] } | undefined;

  const agentFile = (name: string) => {
    const load = async (): Promise<BaseAgent> => {
      let agent = agents.get(name);
      if (!agent) {
        agent = builder.rootAgent(scripts.get(name)!);
        agents.set(name, agent);
      }
      return agent;
    };
    return {
      load,
      loadAgent: load,
      loadApp: async () => new m.adk.App({ name, rootAgent: (await load()) as never }),
      getFilePath: () => `in-process:${name}`,
      // The server disposes the file after every run; the agent stays cached like a preloaded one.
      dispose: async () => {},
      [asyncDispose]: async () => {},
    };
  };
  const appNames = (): string[] => [...scripts.values()].filter((s) => s.appName === s.scenarioId).map((s) => s.appName).sort();
  const loader = {
    listAgents: async () => appNames(),
    listApps: async () => [] as string[],
    listLoadFailures: async () => [],
    preloadAgents: async () => {},
    disposeAll: async () => {},
    getAgentFile: async (name: string) => {
      if (scripts.get(name)?.appName === name) return agentFile(name);
      throw notFound(name, lookup?.dir ?? 'in-process scripted agents', lookup?.available ?? appNames());
    },
    getAppFile: async (name: string) => loader.getAgentFile(name),
  };

  /** InMemorySessionService whose appendEvent fails where a scenario scripts an exception outside the event path. */
  class ScriptedSessionService extends m.adk.InMemorySessionService {
    override async appendEvent(request: { session: Session; event: Event }): Promise<Event> {
      const key = `${request.session.appName}\u0000${request.session.id}`;
      const fault = faults.get(key);
      if (fault) {
        // The failure hits the first event of the next LLM call: the tool round stays whole as the
        // script shows it, its content-less trailing usage report (streaming, research §5c) included.
        const trailingReport = request.event.content === undefined && request.event.errorCode === undefined;
        if (fault.seen >= fault.afterFunctionResponses && !(fault.seen > 0 && trailingReport)) {
          faults.delete(key);
          throw new Error(fault.message);
        }
        if (request.event.content?.parts?.some((p) => p.functionResponse !== undefined)) fault.seen++;
      }
      return super.appendEvent(request);
    }
  }

  type ServerOptions = ConstructorParameters<typeof m.devtools.AdkApiServer>[0];
  const server = new m.devtools.AdkApiServer({
    host: '127.0.0.1',
    port: 0,
    agentLoader: loader as unknown as ServerOptions['agentLoader'],
    sessionService: new ScriptedSessionService(),
    serveDebugUI: false,
    logger: quietLogger as unknown as ServerOptions['logger'],
  });
  await withoutConsoleLog(() => server.start());
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    arm(script, sessionId, timeScale) {
      states.set(script.appName, { script, modelCalls: new Map(), toolCalls: new Map(), timeScale });
      lookup = script.unknownApp;
      if (script.sessionFault) faults.set(`${script.appName}\u0000${sessionId}`, { ...script.sessionFault, seen: 0 });
    },
    close: () => (closing ??= withoutConsoleLog(() => server.stop())),
  };
}
