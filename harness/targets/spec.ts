/**
 * What the user pointed the harness at, parsed and checked once. Configuration errors are thrown
 * here with a message saying how to fix them (exit 2), before anything starts.
 */
import { existsSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { UsageError, nearest } from '../../core/errors.ts';
import { isSpecVersion, specVersions, type SpecVersion } from '../spec-version.ts';

export type TargetSpec = {
  gateway?: { url: string } | { command: string };
  /** `startupTimeoutMs`: the start-up bound of a transformer command (from --startup-timeout S, targets/index.ts). */
  transformer?: { command: string; startupTimeoutMs?: number } | { module: string };
  normalizer?: { command: string } | { module: string };
  /** A POST SSE client: a command speaking docs/client-contract.md, or a module exporting createClient. */
  client?: { command: string } | { module: string };
  /** The audit bridge: a command speaking docs/audit-bridge-contract.md, or a module exporting createAuditBridge. */
  auditBridge?: { command: string } | { module: string };
  /** The proof-layer stream store: a module exporting createProofLayerStream (docs/proof-stream-contract.md). */
  proofStream?: { module: string };
  /** A server helper around an adk-js Runner: a module exporting createAdkServer (docs/adk-server-contract.md). */
  adkServer?: { module: string };
  /** The cookie-to-bearer proxy: a running one (its BACKEND_URL at --backend-port) or a command (docs/proxy-contract.md). */
  proxy?: { url: string } | { command: string };
  /** Where the harness serves the proxy's backend when the proxy is given by URL (default 8000). */
  backendPort?: number;
  /** No target flag at all: certify the reference implementation (every part). */
  reference: boolean;
  /** Port for the mock the harness starts (a gateway given by URL must point its upstream here). */
  mockPort: number;
  /** Shared secret the gateway under test verifies HS256 tokens with (for the auth probes). */
  jwtSecret?: string;
  /** What the gateway under test serves beyond /run_sse, and its one app (--app-name, --gateway-serves; harness/targets/gateway/runner.ts GatewayShape). */
  gatewayShape?: { appName?: string; cookieProxy?: boolean; enhancedEndpoint?: boolean; legacyRoutes?: boolean };
  /** The cookie and header names the proxy under test reads (--auth-cookie, --csrf-cookie, --csrf-header; harness/targets/proxy/runner.ts ProxyNames). */
  proxyNames?: { authCookie?: string; csrfCookie?: string; csrfHeader?: string };
  /** How long a started process may take to show it is ready (--startup-timeout, in seconds on the command line): a gateway or proxy to listen, a transformer or client command to answer an empty input; absent: each part's default. */
  startupTimeoutMs?: number;
  /** How a transformer or client command is run (--protocol; command-startup.ts ProtocolChoice); absent: auto. */
  protocol?: 'auto' | 'session' | 'one-shot';
  /** The AgentBriefingEvent spec version a transformer is judged against (--spec); absent: the schema_version its events declare, else 1.0. */
  spec?: SpecVersion;
};

export type TargetFlags = {
  gateway?: string; 'gateway-cmd'?: string; 'mock-port'?: string;
  'transformer-cmd'?: string; 'transformer-module'?: string;
  'normalizer-cmd'?: string; 'normalizer-module'?: string;
  'client-cmd'?: string; 'client-module'?: string;
  'audit-bridge-cmd'?: string; 'audit-bridge-module'?: string;
  'proof-stream-module'?: string;
  'adk-server-module'?: string;
  proxy?: string; 'proxy-cmd'?: string; 'backend-port'?: string;
  'jwt-secret'?: string;
  'startup-timeout'?: string;
  protocol?: string;
  spec?: string;
  'app-name'?: string;
  'gateway-serves'?: string;
  'auth-cookie'?: string; 'csrf-cookie'?: string; 'csrf-header'?: string;
};

/**
 * The words of --gateway-serves, each the shape key it sets and to what: the faces of a gateway the
 * seeds place elsewhere by default, and `legacy-elsewhere` for the legacy routes the seed keeps in
 * the existing app (judged unless said).
 */
export const gatewayFaces = { 'cookie-proxy': ['cookieProxy', true], 'run-sse-enhanced': ['enhancedEndpoint', true], 'legacy-elsewhere': ['legacyRoutes', false] } as const;

function exclusive(flags: TargetFlags, a: keyof TargetFlags, b: keyof TargetFlags): void {
  if (flags[a] !== undefined && flags[b] !== undefined) throw new UsageError(`--${a} and --${b} both name the same part; give one of them.`);
}

/** What each command flag's process is given and reads, for the message of an empty value. */
const commandHelp: Record<'gateway-cmd' | 'transformer-cmd' | 'normalizer-cmd' | 'client-cmd' | 'audit-bridge-cmd' | 'proxy-cmd', string> = {
  'gateway-cmd': 'give the command that starts your gateway on $PORT with its upstream at $ADK_UPSTREAM_URL, e.g. --gateway-cmd "node my-gateway.js" (docs/harness-gateway.md)',
  'transformer-cmd': 'give the command that reads ADK frame payloads on stdin and writes AgentBriefingEvents, e.g. --transformer-cmd "python3 examples/python-transformer/transformer.py" (docs/transform-contract.md)',
  'normalizer-cmd': 'give the command that reads one turn\'s input events on stdin and writes block events, e.g. --normalizer-cmd "./my-normalizer" (docs/normalizer.md)',
  'client-cmd': 'give the command that reads a /run_sse body on stdin, e.g. --client-cmd "python3 examples/python-client/client.py" (docs/client-contract.md)',
  'audit-bridge-cmd': 'give the command that starts your bridge, e.g. --audit-bridge-cmd "python3 bridge.py" (docs/audit-bridge-contract.md)',
  'proxy-cmd': 'give the command that starts your proxy on $PORT with its backend at $BACKEND_URL, e.g. --proxy-cmd "node my-proxy.js" (docs/proxy-contract.md)',
};

/** An empty command would run `sh -c ''` and be certified as an implementation that writes nothing: refuse it. */
function commandFlag(value: string, flag: keyof typeof commandHelp): { command: string } {
  if (value.trim() === '') throw new UsageError(`--${flag} is empty; ${commandHelp[flag]}.`);
  return { command: value };
}

/** What Node can import in process (TypeScript through tsx): anything else cannot be a module target. */
export const moduleExtensions = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'] as const;

/** For an implementation in another language: the flag that runs it as a process, where the part has one. */
const otherLanguages: Record<string, string> = {
  'transformer-module': 'use --transformer-cmd "CMD" (docs/transform-contract.md)',
  'normalizer-module': 'use --normalizer-cmd "CMD" (docs/normalizer.md)',
  'client-module': 'use --client-cmd "CMD" (docs/client-contract.md)',
  'audit-bridge-module': 'use --audit-bridge-cmd "CMD" (docs/audit-bridge-contract.md)',
  'adk-server-module': 'the server helper is handed a live adk-js Runner in process, so it has no command mode: certify the JavaScript or TypeScript route that wraps the Runner (docs/adk-server-contract.md)',
  'proof-stream-module': 'the proof-layer stream has no command mode (it runs in virtual time in process): wrap your store in a small JavaScript module exporting createProofLayerStream (docs/proof-stream-contract.md)',
};

function moduleFlag(value: string, flag: string): { module: string } {
  if (value.trim() === '') throw new UsageError(`--${flag} is empty; give the path of a JavaScript or TypeScript module (${moduleExtensions.join(', ')}).`);
  const path = resolve(value);
  if (!existsSync(path)) throw new UsageError(`--${flag} ${value}: no such file (resolved to ${path}).`);
  if (statSync(path).isDirectory()) throw new UsageError(`--${flag} ${value} is a directory (${path}); give the module file itself, e.g. --${flag} ${join(value, 'index.ts')}.`);
  const extension = extname(path).toLowerCase();
  if (!(moduleExtensions as readonly string[]).includes(extension)) {
    throw new UsageError(`--${flag} ${value}: a module is loaded into the harness's Node process, so it must be JavaScript or TypeScript (${moduleExtensions.join(', ')}), not ${extension || 'a file without an extension'}; for an implementation in another language, ${otherLanguages[flag] ?? 'use the part\'s --*-cmd flag'}.`);
  }
  return { module: path };
}

export function parseTargetSpec(flags: TargetFlags): TargetSpec {
  exclusive(flags, 'gateway', 'gateway-cmd');
  exclusive(flags, 'transformer-cmd', 'transformer-module');
  exclusive(flags, 'normalizer-cmd', 'normalizer-module');
  exclusive(flags, 'client-cmd', 'client-module');
  exclusive(flags, 'audit-bridge-cmd', 'audit-bridge-module');
  exclusive(flags, 'proxy', 'proxy-cmd');
  const spec: TargetSpec = { reference: false, mockPort: 0 };
  if (flags.gateway !== undefined) {
    let url: URL;
    try { url = new URL(flags.gateway); } catch { throw new UsageError(`--gateway ${flags.gateway} is not a URL; give the gateway's base URL, e.g. --gateway http://127.0.0.1:8000`); }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--gateway ${flags.gateway}: use an http(s) URL.`);
    spec.gateway = { url: url.toString().replace(/\/$/, '') };
    // A gateway started by the team points at a fixed upstream port; 8080 is the ADK default.
    spec.mockPort = 8080;
  }
  if (flags['gateway-cmd'] !== undefined) spec.gateway = commandFlag(flags['gateway-cmd'], 'gateway-cmd');
  if (flags['transformer-cmd'] !== undefined) spec.transformer = commandFlag(flags['transformer-cmd'], 'transformer-cmd');
  if (flags['transformer-module'] !== undefined) spec.transformer = moduleFlag(flags['transformer-module'], 'transformer-module');
  if (flags['normalizer-cmd'] !== undefined) spec.normalizer = commandFlag(flags['normalizer-cmd'], 'normalizer-cmd');
  if (flags['normalizer-module'] !== undefined) spec.normalizer = moduleFlag(flags['normalizer-module'], 'normalizer-module');
  if (flags['client-cmd'] !== undefined) spec.client = commandFlag(flags['client-cmd'], 'client-cmd');
  if (flags['client-module'] !== undefined) spec.client = moduleFlag(flags['client-module'], 'client-module');
  if (flags['audit-bridge-cmd'] !== undefined) spec.auditBridge = commandFlag(flags['audit-bridge-cmd'], 'audit-bridge-cmd');
  if (flags['audit-bridge-module'] !== undefined) spec.auditBridge = moduleFlag(flags['audit-bridge-module'], 'audit-bridge-module');
  if (flags['proof-stream-module'] !== undefined) spec.proofStream = moduleFlag(flags['proof-stream-module'], 'proof-stream-module');
  if (flags['adk-server-module'] !== undefined) spec.adkServer = moduleFlag(flags['adk-server-module'], 'adk-server-module');
  if (flags.proxy !== undefined) {
    let url: URL;
    try { url = new URL(flags.proxy); } catch { throw new UsageError(`--proxy ${flags.proxy} is not a URL; give the proxy's base URL, e.g. --proxy http://127.0.0.1:3000 (its BACKEND_URL at the harness's --backend-port, default 8000)`); }
    if (url.protocol !== 'http:') throw new UsageError(`--proxy ${flags.proxy}: use an http URL on this machine.`);
    spec.proxy = { url: url.toString().replace(/\/$/, '') };
  }
  if (flags['proxy-cmd'] !== undefined) spec.proxy = commandFlag(flags['proxy-cmd'], 'proxy-cmd');
  if (flags['backend-port'] !== undefined) {
    const n = Number(flags['backend-port']);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UsageError(`--backend-port must be an integer from 1 to 65535, got '${flags['backend-port']}'.`);
    if (!spec.proxy || !('url' in spec.proxy)) throw new UsageError('--backend-port goes with --proxy URL (a proxy the harness starts gets its BACKEND_URL in the environment).');
    spec.backendPort = n;
  }
  if (flags['mock-port'] !== undefined) {
    const n = Number(flags['mock-port']);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--mock-port must be an integer from 0 to 65535, got '${flags['mock-port']}'.`);
    spec.mockPort = n;
  }
  if (flags['jwt-secret'] !== undefined) spec.jwtSecret = flags['jwt-secret'];
  if (flags['startup-timeout'] !== undefined) spec.startupTimeoutMs = parseStartupTimeout(flags['startup-timeout']);
  if (flags.protocol !== undefined) {
    const forms = ['auto', 'session', 'one-shot'] as const;
    const form = forms.find((f) => f === flags.protocol);
    if (!form) throw new UsageError(`--protocol ${flags.protocol} is not a form; give ${forms.join(', ')}${nearest(flags.protocol, [...forms]) ? ` (did you mean '${nearest(flags.protocol, [...forms])}'?)` : ''} (docs/session-protocol.md).`);
    if (!(spec.transformer && 'command' in spec.transformer) && !(spec.client && 'command' in spec.client) && !(spec.normalizer && 'command' in spec.normalizer)) throw new UsageError('--protocol says how a transformer, client or normaliser command is run; it goes with --transformer-cmd, --client-cmd or --normalizer-cmd.');
    spec.protocol = form;
  }
  if (flags.spec !== undefined) {
    if (!isSpecVersion(flags.spec)) throw new UsageError(`--spec ${flags.spec} is not a spec version; give ${specVersions.join(' or ')}${nearest(flags.spec, [...specVersions]) ? ` (did you mean '${nearest(flags.spec, [...specVersions])}'?)` : ''}; without it a transformer is judged against the schema_version its events declare, else 1.0 (docs/versioning.md "Spec versions").`);
    if (spec.gateway || spec.normalizer || spec.auditBridge || spec.client || spec.proofStream || spec.proxy || spec.adkServer ? !spec.transformer : false) throw new UsageError('--spec says which AgentBriefingEvent version a transformer is judged against; it goes with --transformer-cmd or --transformer-module (or no target flag: the reference).');
    spec.spec = flags.spec;
  }
  const names = parseProxyNames(flags);
  if (names) {
    if (!spec.proxy) throw new UsageError(`--${(['auth-cookie', 'csrf-cookie', 'csrf-header'] as const).find((k) => flags[k] !== undefined)} names what the proxy under test reads; it goes with --proxy URL or --proxy-cmd "CMD" (docs/proxy-contract.md).`);
    spec.proxyNames = names;
  }
  const shape = parseGatewayShape(flags);
  if (shape) {
    if (!spec.gateway) throw new UsageError(`--${flags['app-name'] !== undefined ? 'app-name' : 'gateway-serves'} describes the gateway under test; it goes with --gateway URL or --gateway-cmd "CMD".`);
    spec.gatewayShape = shape;
  }
  spec.reference = !spec.gateway && !spec.transformer && !spec.normalizer && !spec.auditBridge && !spec.client && !spec.proofStream && !spec.proxy && !spec.adkServer;
  return spec;
}

/**
 * --startup-timeout SECONDS: how long a started implementation may take to show it is ready (a
 * gateway: listen on $PORT). Start-up is never judged as behaviour; a machine under load or a
 * heavy runtime (FastAPI's imports, a JVM, `npx tsx`) needs more than the default.
 */
export function parseStartupTimeout(value: string): number {
  // One flag for every part that starts a process: gateways and proxies listen, commands answer an empty input.
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0.1 || seconds > 3600) {
    throw new UsageError(`--startup-timeout takes seconds from 0.1 to 3600 (e.g. --startup-timeout 60), got '${value}'.`);
  }
  return Math.round(seconds * 1000);
}

/** --auth-cookie, --csrf-cookie, --csrf-header: a proxy's own names (an HTTP token each), or undefined when none is given. */
export function parseProxyNames(flags: Pick<TargetFlags, 'auth-cookie' | 'csrf-cookie' | 'csrf-header'>): TargetSpec['proxyNames'] {
  const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
  const out: NonNullable<TargetSpec['proxyNames']> = {};
  for (const [flag, key, example] of [['auth-cookie', 'authCookie', 'session'], ['csrf-cookie', 'csrfCookie', 'XSRF-TOKEN'], ['csrf-header', 'csrfHeader', 'X-XSRF-TOKEN']] as const) {
    const value = flags[flag];
    if (value === undefined) continue;
    if (!token.test(value)) throw new UsageError(`--${flag} takes a cookie or header name (letters, digits, - and _), e.g. --${flag} ${example}, got '${value}'.`);
    out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** --app-name NAME and --gateway-serves LIST (docs/configuration.md "gateway"), or undefined when neither is given. */
export function parseGatewayShape(flags: Pick<TargetFlags, 'app-name' | 'gateway-serves'>): TargetSpec['gatewayShape'] {
  const app = flags['app-name'];
  const serves = flags['gateway-serves'];
  if (app === undefined && serves === undefined) return undefined;
  const shape: NonNullable<TargetSpec['gatewayShape']> = {};
  if (app !== undefined) {
    if (app.trim() === '' || app.includes('/')) throw new UsageError(`--app-name takes the one app name your gateway serves, e.g. --app-name vana (seed 004's example), got '${app}'.`);
    shape.appName = app;
  }
  for (const word of (serves ?? '').split(',').map((w) => w.trim()).filter(Boolean)) {
    const face = (gatewayFaces as Record<string, (typeof gatewayFaces)[keyof typeof gatewayFaces]>)[word];
    if (!face) {
      const near = nearest(word, Object.keys(gatewayFaces));
      throw new UsageError(`--gateway-serves ${word}: not a face of a gateway the harness knows${near ? ` (did you mean '${near}'?)` : ''}; give a comma-separated list of ${Object.keys(gatewayFaces).join(', ')}.`);
    }
    shape[face[0]] = face[1];
  }
  return shape;
}

/** The flags that select this target again, for replay lines. */
export function targetFlags(flags: TargetFlags): string {
  const q = (s: string) => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return Object.entries(flags).filter(([, v]) => v !== undefined).map(([k, v]) => `--${k} ${q(String(v))}`).join(' ');
}
