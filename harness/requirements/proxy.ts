/**
 * Requirements on the cookie-to-bearer SSE proxy as its own part (seed 004 § Frontend SSE Proxy
 * Pattern: a Next.js API route in front of the backend). Certified through docs/proxy-contract.md:
 * the harness runs the backend (the reference gateway behind a recording relay) and compares what
 * the proxy sent it, and what it passed back, with what the client saw.
 */
import type { Requirement } from '../model.ts';

const px = (r: Omit<Requirement, 'part'>): Requirement => ({ ...r, part: 'proxy' });

export const proxyRequirements: Requirement[] = [
  px({ id: 'PRX-AUTH-001', level: 'MUST', title: 'the token of the HttpOnly auth cookie reaches the backend as `Authorization: Bearer <token>` on POST /run_sse, and a request without the cookie is refused with 401 and reaches the backend with no token', source: { doc: 'seed-004', section: 'Frontend SSE Proxy Pattern' }, quote: 'Server-side Next.js API route extracts tokens from cookies and forwards to backend', tags: ['proxy', 'auth'] }),
  px({ id: 'PRX-URL-001', level: 'MUST', title: 'no token is ever in a URL: none in any URL the proxy requests of the backend, and a token in the request\'s own URL is never used', source: { doc: 'seed-004', section: 'Frontend SSE Proxy Pattern' }, quote: 'JWT tokens must not be exposed in browser URLs', tags: ['proxy', 'auth'] }),
  px({ id: 'PRX-PASS-001', level: 'MUST', title: 'the client receives the backend\'s status, content type and body bytes unchanged, error answers included', source: { doc: 'seed-004', section: 'Response Lifecycle' }, quote: '5. Backend proxies events with zero mutation', tags: ['proxy', 'passthrough'] }),
  px({ id: 'PRX-PASS-002', level: 'MUST', title: 'bytes are passed on as they arrive: an event the backend sent before a pause reaches the client before the pause ends', source: { doc: 'seed-004', section: 'Backend Implementation' }, quote: '- Raw SSE line forwarding (including empty lines)', tags: ['proxy', 'passthrough'] }),
  px({ id: 'PRX-ABORT-001', level: 'MUST', title: 'a client that disconnects mid-stream makes the proxy close its backend request within 2 s', source: { doc: 'seed-004', section: 'Response Lifecycle' }, quote: '- Client disconnects', tags: ['proxy', 'abort'] }),
  px({ id: 'PRX-CSRF-001', level: 'MUST', title: 'CSRF protection is kept: a valid X-CSRF-Token pair streams, a missing or mismatched one gets 403 and no run reaches the ADK service', source: { doc: 'seed-004', section: 'Frontend SSE Proxy Pattern' }, quote: '- CSRF protection maintained', tags: ['proxy', 'csrf'] }),
  px({ id: 'PRX-BODY-001', level: 'MUST', title: 'the backend receives the RunAgentRequest body the browser sent, unchanged as a JSON value: every field (stateDelta, invocationId, parts other than text, a text part\'s thought and thoughtSignature) and every value, numbers exactly (an integer above 2^53 not rounded)', source: { doc: 'seed-004', section: 'Frontend Implementation' }, quote: '- Accept POST with RunAgentRequest body', tags: ['proxy', 'passthrough'] }),
  px({ id: 'PRX-HOST-001', level: 'MUST', title: 'a request whose Host header says localhost (any client can write it) gets the cookie and CSRF checks the same request gets without it: the same answer, no credential the proxy supplies, and no run that only the localhost request reaches', source: { doc: 'seed-004', section: 'Frontend SSE Proxy Pattern' }, quote: '- CSRF protection maintained', tags: ['proxy', 'auth', 'csrf'] }),
];
