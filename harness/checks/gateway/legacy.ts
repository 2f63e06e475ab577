/**
 * GW-LEGACY-001 / GW-LEGACY-002: seed 004 § Legacy Pattern (Current Default):
 *   POST /apps/{app}/users/{user}/sessions/{session}/run, Body: {"query": ...},
 *   Response: {"success": true, "sessionId": "..."}  (001: it answers so and starts the run)
 *   GET the same path, Response: text/event-stream (custom events): `research_update`,
 *   `agent_status`, `research_complete` - Final report ready  (002)
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { readSse } from '../../../core/sse.ts';
import { finding, headerValues, judge, noStreamReason, untested, type Exchange } from './types.ts';

export type LegacyObservation = {
  sessionId: string;
  post: Exchange;
  /** Whether the mock received the run the POST started (within a bound), or why unknown. */
  upstreamStarted: boolean | { error: string };
  /** The GET stream, when the POST was accepted. */
  get?: Exchange | undefined;
};

export const legacyEventNames = ['agent_status', 'research_update', 'research_complete'] as const;

export function checkLegacy(probe: string, o: LegacyObservation): CheckOutcome[] {
  const first: Finding[] = [];
  const noPost = noStreamReason(o.post);
  if (noPost !== undefined) return ['GW-LEGACY-001', 'GW-LEGACY-002'].map((r) => untested(r, probe, `legacy POST: ${noPost}`));
  let json: unknown;
  try { json = JSON.parse(Buffer.from(o.post.body).toString('utf8')); } catch { json = undefined; }
  const answer = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  if (o.post.status !== 200) first.push(finding('GW-LEGACY-001', 'legacy-post-refused', 'status', `the legacy POST .../run answered HTTP ${o.post.status}`, 200, o.post.status));
  if (answer.success !== true) first.push(finding('GW-LEGACY-001', 'legacy-post-answer', 'body/success', 'the legacy POST answer has no "success": true', true, answer.success ?? Buffer.from(o.post.body).toString('utf8').slice(0, 200)));
  if (answer.sessionId !== o.sessionId) first.push(finding('GW-LEGACY-001', 'legacy-post-answer', 'body/sessionId', 'the legacy POST answer does not carry the session id', o.sessionId, answer.sessionId ?? null));
  if (typeof o.upstreamStarted !== 'boolean') first.push(finding('GW-LEGACY-001', 'journal-unreadable', 'upstream', `the mock's journal could not be read: ${o.upstreamStarted.error}`, true, null));
  else if (!o.upstreamStarted) first.push(finding('GW-LEGACY-001', 'legacy-run-not-started', 'upstream', 'after the legacy POST the mock received no run request for the session: the POST did not start the run', 'POST /run_sse', null));
  const outcomes = [judge('GW-LEGACY-001', probe, first)];

  const get = o.get;
  if (!get) return [...outcomes, untested('GW-LEGACY-002', probe, 'the legacy POST was not accepted, so there was no run to stream')];
  const noGet = noStreamReason(get);
  if (noGet !== undefined) return [...outcomes, untested('GW-LEGACY-002', probe, `legacy GET: ${noGet}`)];
  const second: Finding[] = [];
  if (get.status !== 200) second.push(finding('GW-LEGACY-002', 'legacy-get-refused', 'status', `the legacy GET .../run answered HTTP ${get.status}`, 200, get.status));
  const type = headerValues(get, 'content-type')[0] ?? '';
  if (!/^text\/event-stream\b/i.test(type.trim())) second.push(finding('GW-LEGACY-002', 'legacy-not-sse', 'header:content-type', 'the legacy GET is not an event stream', 'text/event-stream', type));
  const frames = readSse(get.body).frames;
  const names = frames.map((f) => f.event ?? 'message');
  for (const [i, f] of frames.entries()) {
    let ok = false;
    try { const v = JSON.parse(f.data) as unknown; ok = v !== null && typeof v === 'object' && !Array.isArray(v); } catch { ok = false; }
    if (!ok) { second.push(finding('GW-LEGACY-002', 'legacy-data-not-json', `frame[${i}]`, `the legacy event '${names[i]}' carries no JSON object`, 'a JSON object', f.data.slice(0, 120))); break; }
  }
  for (const name of ['agent_status', 'research_update'] as const) {
    if (!names.includes(name)) second.push(finding('GW-LEGACY-002', 'legacy-event-missing', 'events', `the legacy stream of a run with text has no ${name} event`, name, names));
  }
  if (names.at(-1) !== 'research_complete') second.push(finding('GW-LEGACY-002', 'legacy-no-complete', `frame[${frames.length}]`, 'the legacy stream does not end with research_complete ("Final report ready")', 'research_complete', names.at(-1) ?? null));
  else if (names.filter((n) => n === 'research_complete').length > 1) second.push(finding('GW-LEGACY-002', 'legacy-complete-repeated', 'events', 'research_complete is sent more than once', 1, names.filter((n) => n === 'research_complete').length));
  if (get.ending === 'deadline') second.push(finding('GW-LEGACY-002', 'legacy-not-ended', `byte ${get.body.length}`, 'the legacy stream stayed open after the run ended', 'end of stream', 'still open'));
  return [...outcomes, judge('GW-LEGACY-002', probe, second)];
}
