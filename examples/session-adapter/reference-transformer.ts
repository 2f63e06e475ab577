/**
 * The kit's reference transformer behind the TypeScript adapter: a per-line module served in the
 * session form (and still in the one-shot form). Certify it with
 *   npx adk-conformance run --transformer-cmd "npx tsx examples/session-adapter/reference-transformer.ts"
 */
import { createTransformer } from '../../harness/targets/transformer/reference.ts';
import { serveOrRunOnce } from './adapter.ts';

await serveOrRunOnce({ name: 'reference-transformer', version: '0.1.0', language: 'typescript', parts: ['transformer'] }, (env, write) => {
  const t = createTransformer({
    onEvent: (event) => write(JSON.stringify(event)),
    idleMs: Number(env.ADK_CONFORMANCE_IDLE_MS ?? 10_000),
    ...(env.ADK_CONFORMANCE_SESSION_ID ? { sessionId: env.ADK_CONFORMANCE_SESSION_ID } : {}),
    ...(env.ADK_CONFORMANCE_ENHANCED === '1' ? { enhanced: true } : {}),
  });
  return { onLine: (text) => { if (text.trim() !== '') t.push(text); }, onEnd: () => { t.end(); t.dispose(); } };
});
