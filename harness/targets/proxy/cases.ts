/**
 * What the proxy probes send beside the corpus (harness/targets/proxy/runner.ts): the backend error
 * answers the relay gives in the gateway's place (PRX-PASS-001) and the bodies whose forwarding
 * PRX-BODY-001 compares.
 */
import { nonTextParts, textPartFields } from '../gateway/probes-stream.ts';
import type { ScriptedAnswer } from './backend.ts';

/**
 * Error answers a real backend gives before any stream that the reference gateway never does
 * (docs/proxy-contract.md: "error answers (401, 403, 404, 501, 502) included"); the relay gives
 * them in its place. 401 and 403 come from the gateway itself.
 */
export const scriptedErrors: Array<{ label: string; answer: ScriptedAnswer }> = [
  { label: 'a 404 of FastAPI\'s', answer: { status: 404, headers: { 'content-type': 'application/json' }, body: '{"detail":"Not Found"}' } },
  { label: 'the seed\'s 501 of a gateway switched off', answer: { status: 501, headers: { 'content-type': 'application/json' }, body: '{"detail":"ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint."}' } },
  { label: 'a 502 of an nginx in front of the backend', answer: { status: 502, headers: { 'content-type': 'text/html' }, body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n' } },
];

/** An integer JavaScript's JSON.parse rounds (to 12345678901234567000): written into the body as text. */
const bigInteger = '12345678901234567890';
/** The bodies PRX-BODY-001 sends, as text built from a session's valid body. */
export const forwardedBodies: Array<[string, (valid: Record<string, unknown>) => string]> = [
  ['a body with streaming, a nested stateDelta holding an integer above 2^53, and invocationId', (v) => JSON.stringify({ ...v, streaming: true, stateDelta: { fire: 'Cedar Creek', acres: 127283, ticket: '<big>', nested: { ok: true, list: [1, 'two', null] } }, invocationId: 'e-adk-conformance-resume' }).replace('"<big>"', bigInteger)],
  ['a newMessage with thought and thoughtSignature text parts, inlineData, functionCall and functionResponse parts', (v) => JSON.stringify({ ...v, newMessage: { role: 'user', parts: [...textPartFields, ...nonTextParts] } })],
];
