/**
 * `adk-conformance gateway`: serve the reference /run_sse gateway (seed 004) until SIGINT/SIGTERM.
 * `adk-conformance gateway token --secret S`: mint a development HS256 token for it.
 * Settings come from the environment (docs/gateway.md); the flags below override them.
 */
import { SignJWT } from 'jose';
import { parseOptions, parsePort, UsageError } from '../args.ts';
import { readGatewayConfig, type GatewayConfigInput } from '../../reference-impl/gateway/config.ts';
import { startGateway } from '../../reference-impl/gateway/start.ts';
import { processLineIo, waitForStopSignal } from '../io.ts';

const help = `usage: adk-conformance gateway [--host 127.0.0.1] [--port 8000] [--upstream URL]
                              [--enable-canonical] [--allow-unauthenticated] [--timeout-ms N]
       adk-conformance gateway token --secret S [--sub dev-user] [--expires-in 3600] [--issuer I] [--audience A]

Serve the reference POST /run_sse gateway in front of an ADK API server. Every setting is an
environment variable documented in docs/gateway.md; these flags override the matching one.

  --host                   interface to listen on (default 127.0.0.1)
  --port                   TCP port; 0 lets the kernel choose (default: $PORT, else 8000)
  --upstream               ADK API server base URL (default: $ADK_UPSTREAM_URL, else http://127.0.0.1:8080)
  --enable-canonical       same as ENABLE_ADK_CANONICAL_STREAM=true (otherwise POST /run_sse answers 501)
  --allow-unauthenticated  same as ALLOW_UNAUTHENTICATED_SSE=true (development only: no JWT check)
  --timeout-ms             same as GATEWAY_TIMEOUT_MS (default 300000)

token: print an HS256 JWT signed with --secret (the gateway's JWT_SECRET, at least 32 bytes).`;

export type GatewayCommandIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  env?: Record<string, string | undefined>;
  /** Resolves when the process is asked to stop (tests pass their own). */
  stopSignal?: Promise<string>;
};

export async function run(argv: string[], io: GatewayCommandIo = processLineIo()): Promise<number> {
  if (argv[0] === 'token') return mintToken(argv.slice(1), io);
  const { values, positionals } = parseOptions(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    upstream: { type: 'string' },
    'enable-canonical': { type: 'boolean' },
    'allow-unauthenticated': { type: 'boolean' },
    'timeout-ms': { type: 'string' },
  }, help);
  if (values.help) { io.out(help); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'.\n\n${help}`);
  const env = { ...(io.env ?? process.env) };
  if (values.upstream !== undefined) env['ADK_UPSTREAM_URL'] = values.upstream;
  if (values['enable-canonical']) env['ENABLE_ADK_CANONICAL_STREAM'] = 'true';
  if (values['allow-unauthenticated']) env['ALLOW_UNAUTHENTICATED_SSE'] = 'true';
  if (values['timeout-ms'] !== undefined) env['GATEWAY_TIMEOUT_MS'] = values['timeout-ms'];
  const host = values.host ?? '127.0.0.1';
  const port = values.port !== undefined ? parsePort(values.port, 8000) : parsePort(env['PORT'], 8000, 'the PORT environment variable');

  let config: GatewayConfigInput;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  try {
    config = readGatewayConfig(env);
    gateway = await startGateway({ config, host, port, logger: { level: 'warn' } });
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  io.out(`gateway listening on ${gateway.url} (upstream ${config.upstreamUrl})`);
  if (!config.canonicalStreamEnabled) io.err('note: ENABLE_ADK_CANONICAL_STREAM is not true, so POST /run_sse answers 501 (seed 004 feature flag)');
  if (config.auth.mode === 'off') io.err('note: ALLOW_UNAUTHENTICATED_SSE=true: no JWT is checked (development only)');

  const signal = await (io.stopSignal ?? waitForStopSignal());
  io.out(`${signal}: closing the gateway`);
  await gateway.close();
  return 0;
}

async function mintToken(argv: string[], io: GatewayCommandIo): Promise<number> {
  const tokenHelp = 'usage: adk-conformance gateway token --secret S [--sub dev-user] [--expires-in 3600] [--issuer I] [--audience A]';
  const { values, positionals } = parseOptions(argv, {
    secret: { type: 'string' },
    sub: { type: 'string' },
    'expires-in': { type: 'string' },
    issuer: { type: 'string' },
    audience: { type: 'string' },
  }, tokenHelp);
  if (values.help) { io.out(tokenHelp); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'.\n\n${tokenHelp}`);
  const secret = values.secret ?? (io.env ?? process.env)['JWT_SECRET'];
  if (!secret) throw new UsageError(`--secret is required (or set JWT_SECRET).\n\n${tokenHelp}`);
  if (Buffer.byteLength(secret) < 32) throw new UsageError('--secret must be at least 32 bytes (HS256, RFC 7518 §3.2), as the gateway requires of JWT_SECRET.');
  const expiresIn = Number(values['expires-in'] ?? 3600);
  if (!Number.isInteger(expiresIn) || expiresIn <= 0) throw new UsageError(`--expires-in must be a positive number of seconds, got '${values['expires-in']}'.`);
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(values.sub ?? 'dev-user').setIssuedAt(now).setExpirationTime(now + expiresIn);
  if (values.issuer !== undefined) jwt = jwt.setIssuer(values.issuer);
  if (values.audience !== undefined) jwt = jwt.setAudience(values.audience);
  io.out(await jwt.sign(new TextEncoder().encode(secret)));
  return 0;
}


