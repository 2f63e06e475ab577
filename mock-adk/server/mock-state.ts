/**
 * Everything one mock instance remembers: the scenarios it serves, its dialect, the session
 * store, armed runs, the request journal and the stream counters. The fastify app and the msw
 * handlers each build one of these and hand it to the same route handlers.
 */
import type { Scenario } from '../../schemas/types.ts';
import type { Dialect } from '../core/types.ts';
import { acceptedDialectNames, describeDialects, resolveDialect } from '../core/dialects/names.ts';
import { ownDialect, scenarioDialects, type ScenarioRenderings } from '../core/scenario-dialects.ts';
import { dialectNames as everyDialect } from '../core/dialects/index.ts';
import type { FaultSpec } from '../core/faults.ts';
import { createJournal, type Journal, type JournalConfig } from './journal.ts';
import { createSessionStore, type SessionStore } from './session-store.ts';
import { createStreamStats, type StreamStats } from './stream-stats.ts';
import { createRenderCache, type RenderCache, type RenderCacheOptions } from './render-cache.ts';

/** The names a mock, an arm or a scenario may use (versioned names first, then the aliases). */
export const dialectNames: readonly string[] = acceptedDialectNames;

/** True for a versioned dialect name or an alias; resolveDialect() gives its internal key. */
export function isDialect(value: unknown): value is Dialect | string {
  return resolveDialect(value) !== undefined;
}

/** A run armed by `POST /_mock/arm`: consumed by the next run request naming that session. */
export type ArmedRun = { scenario: Scenario; dialect?: Dialect; faults: FaultSpec[] };

/** A fault as scenarios write it: `{name, ...params}`. */
export type { FaultSpec };

export type MockStateOptions = {
  /** The scenarios to serve (the caller loads them: see scenarios/loader.ts). */
  scenarios: readonly Scenario[];
  /** Which ADK server the routes imitate. Default adk-js. */
  dialect?: Dialect;
  /** Shown where the real adk-js names its agents folder ("Agent 'x' not found in <dir>"). */
  scenariosDir?: string;
  journal?: JournalConfig;
  /** Clock for session timestamps (tests pin it). */
  now?: () => number;
  /** Multiplies every scripted wait (1 = as scripted, 0 = none); bytes and write boundaries stay the same. */
  timeScale?: number;
  /** Bounds of the rendered-plan cache (render-cache.ts); `{maxEntries: 0}` renders every request afresh. */
  renderCache?: RenderCacheOptions;
  /**
   * adk-python 2.x's `ADK_DEFAULT_APP_NAME`: the app a run request without `app_name` runs. Unset,
   * such a request is a 400 (api_server.py@024a4389). The CLI fills it from the environment.
   */
  defaultAppName?: string;
  /** The address the server listens on (start.ts sets it); adk-python 2.x's Host guard is on for a loopback bind only (origin-gate.ts). */
  bindHost?: string;
};

export type MockState = {
  dialect: Dialect;
  scenarios: ReadonlyMap<string, Scenario>;
  /** Sorted, as `/list-apps` answers them. */
  scenarioIds: readonly string[];
  scenariosDir: string;
  sessions: SessionStore;
  journal: Journal;
  streams: StreamStats;
  armed: Map<string, ArmedRun>;
  now: () => number;
  timeScale: number;
  renderCache: RenderCache;
  defaultAppName: string | undefined;
  bindHost: string | undefined;
};

export function createMockState(options: MockStateOptions): MockState {
  if (!Array.isArray(options.scenarios)) {
    throw new TypeError('mock: `scenarios` must be an array of scenarios; load them with loadScenarios() from scenarios/loader.ts');
  }
  const dialect = resolveDialect(options.dialect ?? 'adk-js');
  if (!dialect) throw new TypeError(`mock: dialect must be one of ${describeDialects()}, got ${JSON.stringify(options.dialect)}`);
  const scenarios = new Map<string, Scenario>();
  for (const [index, scenario] of options.scenarios.entries()) {
    const id = (scenario as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id === '') throw new TypeError(`mock: scenarios[${index}] has no string id; pass scenarios returned by loadScenarios()`);
    if (scenarios.has(id)) throw new TypeError(`mock: two scenarios have the id '${id}'; ids are app names and must be unique`);
    scenarios.set(id, scenario);
  }
  const now = options.now ?? Date.now;
  const timeScale = options.timeScale ?? 1;
  if (typeof timeScale !== 'number' || !Number.isFinite(timeScale) || timeScale < 0) throw new TypeError(`mock: timeScale must be a finite number >= 0 (1 = scripted timing, 0 = no waits), got ${JSON.stringify(timeScale)}`);
  return {
    dialect,
    scenarios,
    scenarioIds: [...scenarios.keys()].sort(),
    scenariosDir: options.scenariosDir ?? 'scenarios',
    sessions: createSessionStore({ now }),
    journal: createJournal(options.journal),
    streams: createStreamStats(),
    armed: new Map(),
    now,
    timeScale,
    renderCache: createRenderCache(options.renderCache),
    // `os.getenv("ADK_DEFAULT_APP_NAME")` is falsy when empty too: "" means unset.
    defaultAppName: options.defaultAppName || undefined,
    bindHost: options.bindHost,
  };
}

export { scenarioDialects };

/**
 * The dialect a run of `scenario` is rendered in: the armed one, else the mock's when the
 * scenario renders in it (every unpinned run does), else the scenario's own (a pinned run or a
 * byte script: captured bytes are only ever that server's).
 */
export function renderDialect(scenario: Scenario, mockDialect: Dialect, armed?: Dialect): Dialect {
  if (armed) return armed;
  // `scenarioDialects(scenario).includes(mockDialect)` without building the list (once per run request).
  const own = ownDialect(scenario);
  if (own === mockDialect) return mockDialect;
  const renderIn = (scenario as ScenarioRenderings).renderIn;
  const every = scenario.upstream.kind === 'run' && (scenario as ScenarioRenderings).pinned === undefined;
  return every && everyDialect.includes(mockDialect) && (renderIn === undefined || renderIn.includes(mockDialect)) ? mockDialect : own;
}
