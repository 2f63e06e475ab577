/**
 * Requirements on a server helper: code that takes an adk-js Runner and serves POST /run_sse (a
 * framework's route helper, a team's own route). The harness hands it a real Runner over a
 * scripted model and judges what it serves against what the Runner yielded
 * (docs/adk-server-contract.md); the served bytes are also judged by the ADK-* requirements.
 */
import type { Requirement } from '../model.ts';

const as = (r: Omit<Requirement, 'part'>): Requirement => ({ ...r, part: 'adk-server' });

export const adkServerRequirements: Requirement[] = [
  as({ id: 'SRV-FID-001', level: 'MUST', title: 'every event the Runner yields is served, in order, with every field the Runner gave it (modelVersion, nodeInfo, output, actions.endOfAgent, a part\'s thoughtSignature...), none dropped, renamed or changed', source: { doc: 'seed-004', section: 'SSE Wire Format' }, quote: '- No mutation of ADK event structure', tags: ['fidelity', 'serialisation'] }),
  as({ id: 'SRV-ABORT-001', level: 'SHOULD', title: 'when the client leaves mid-run, the run stops: the Runner\'s abortSignal fires or its generator is ended within 2 s, and the model is not called again', source: { doc: 'seed-004', section: 'Response Lifecycle' }, quote: '7. Connection closes when:', tags: ['abort', 'disconnect'] }),
  as({ id: 'SRV-BP-001', level: 'SHOULD', title: 'the helper pulls events from the Runner no faster than the client reads them: with a client that reads nothing, it stops pulling once the socket\'s buffers are full', source: { doc: 'adk-wire-format', section: '3. Response headers and SSE framing (exact bytes)' }, quote: 'Each event is one `res.write()`, in a single line, with LF only and no CR.', tags: ['backpressure', 'memory'] }),
  as({ id: 'SRV-EMPTY-001', level: 'SHOULD', title: 'a newMessage with nothing in it (no parts, or only empty text) does not run the model', source: { doc: 'adk-wire-format', section: '2. `POST /run_sse` request' }, quote: '`newMessage.parts` must be non-empty, otherwise there is an in-stream error.', tags: ['request', 'empty-message'] }),
];
