/** The basis of each cookie-to-bearer proxy requirement (seed 004 "Frontend SSE Proxy Pattern", under "Security Requirements"). */
import type { BasisTable } from './basis.ts';
import { fieldBuffering, jsAbortsOnClose, pyCancelsOnDisconnect, pyCharset, seed } from './basis-sources.ts';

const security = 'Security Requirements';
const pattern = (quote: string) => seed('seed-004', 'Frontend SSE Proxy Pattern', quote, security);
const component = (quote: string) => seed('seed-004', 'Frontend Implementation', quote, '**Required Components:**');

export const proxyBasis: BasisTable = {
  'PRX-AUTH-001': { evidence: [pattern('Server-side Next.js API route extracts tokens from cookies and forwards to backend'), component('- Forward to backend with Authorization header')], supports: 'MUST', allows: ['any cookie name the proxy is configured with', 'refusing a request without the cookie itself, or passing the backend\'s 401 on'] },
  'PRX-URL-001': { evidence: [pattern('JWT tokens must not be exposed in browser URLs')], supports: 'MUST', allows: ['query parameters that carry no token'] },
  'PRX-PASS-001': { evidence: [seed('seed-004', 'Response Lifecycle', '5. Backend proxies events with zero mutation'), component('- Stream response back to client'), pyCharset], supports: 'MUST', allows: ['a Content-Type that differs only by a `charset=utf-8` parameter the framework adds (GW-HDR-001 allows the same)', 'hop-by-hop headers (Connection, Transfer-Encoding) that differ'] },
  'PRX-PASS-002': { evidence: [fieldBuffering, component('- Stream response back to client'), seed('seed-004', 'Backend Implementation', '- Raw SSE line forwarding (including empty lines)')], supports: 'MUST', allows: ['bytes passed on in other chunks'] },
  'PRX-ABORT-001': { evidence: [jsAbortsOnClose, pyCancelsOnDisconnect, seed('seed-004', 'Response Lifecycle', '- Client disconnects')], supports: 'MUST', allows: ['a refused answer (401, 403) that is no stream: there is nothing to abort'] },
  'PRX-CSRF-001': { evidence: [pattern('- CSRF protection maintained')], supports: 'MUST', allows: ['the check made by the proxy or left to the backend, as long as a bad token reaches no run'] },
  'PRX-BODY-001': { evidence: [component('- Accept POST with RunAgentRequest body'), component('- Forward to backend with Authorization header')], supports: 'MUST', allows: ['another key order or JSON whitespace', 'a number written another way with the same exact value (`1.0` for `1`)', 'the body piped on as bytes or parsed and written again, as long as the value is the same', 'the proxy\'s own refusal of a body that is not JSON (the contract leaves its own refusals free)'] },
  'PRX-HOST-001': { evidence: [pattern('Server-side Next.js API route extracts tokens from cookies and forwards to backend'), pattern('- CSRF protection maintained'), component('- Forward to backend with Authorization header')], supports: 'MUST', allows: ['the refusal made by the proxy or passed on from the backend', 'any Host header on the backend request', 'a local-development skip (seed 004 "Local Dev: CSRF validation skipped for `localhost`") decided by the proxy\'s own configuration, which the contract leaves off: the Host header is written by the client and never shows that a request is local'] },
};
