/**
 * ABE-TEXT-001, text conservation (adk-docs PR #2076; seed 002 §2: `content.detail` is the "Main
 * body text" a UI renders). The text a UI renders is the body of each briefing: its
 * `content.detail`, else its `content.summary` (briefings are complete blocks, seed 002 §4.2 rule 2,
 * so a text is rendered inside one body, never pieced together across events). For every model
 * text of the frames (frame-texts.ts: an answer, an intermediate answer, the narration of a call
 * turn), the rendered text must equal it, ratio 1.000:
 * - `text-lost` (ratio < 1): no body contains the whole text. The field report's 0.662x: a chunk
 *   that carries text and a functionCall streams no delta for its text, which reaches the stream
 *   only in the aggregated `partial: false` event, so rendering only deltas drops it;
 * - `streamed-text-repeated` (ratio > 1): a body shows the turn's streamed chunks and then the
 *   aggregated text that repeats them (2.000x), unless a text of the frames says exactly that.
 * What is compared: the whole text, trimmed, as a substring of one body. What is free: which event
 * carries it (an INSIGHT, or the detail of the turn's first DELEGATING/EXECUTING event as the
 * reference does), and what else the body says (e.g. `Request: ...`).
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { TransformerObservation } from './observation.ts';
import { at, bodyOf, sourceOf } from './briefing.ts';
import type { FrameTexts } from './frame-texts.ts';
import { finding, judge } from './outcome.ts';

const id = 'ABE-TEXT-001';
const clip = (s: string, n = 160): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function indexesOf(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

export function checkTextConservation(obs: TransformerObservation, texts: FrameTexts): CheckOutcome[] {
  const targets = texts.texts.filter((t) => t.text.trim());
  if (targets.length === 0) return [];
  const bodies = obs.run.events.flatMap((e) => { const b = bodyOf(e); return b ? [{ e, b }] : []; });
  const sources = [...texts.texts.map((t) => t.text), ...texts.dataTexts];
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const t of targets) {
    const whole = t.text.trim();
    if (!bodies.some(({ b }) => b.includes(whole)) && !reported.has(`lost:${whole}`)) {
      reported.add(`lost:${whole}`);
      const streamed = t.streamed.trim();
      const partial = streamed && streamed !== whole ? bodies.find(({ b }) => b.includes(streamed)) : undefined;
      const ratio = partial ? ` (a briefing shows only its streamed ${streamed.length} of ${whole.length} characters: ${(streamed.length / whole.length).toFixed(3)}x)` : '';
      const own = bodies.filter(({ e }) => sourceOf(e) === t.author).slice(0, 3).map(({ b }) => clip(b, 120));
      findings.push(finding(id, 'text-lost', `frame[${t.frame}]`, `the text ${t.author} completed in frame[${t.frame}] is in no briefing's content.detail or content.summary, so the UI never renders it${ratio}`, clip(whole), partial ? clip(partial.b) : own));
    }
    const streamed = t.streamed.trim();
    if (!streamed) continue;
    for (const { e, b } of bodies) {
      for (const i of indexesOf(b, whole)) {
        const before = b.slice(0, i).trimEnd();
        if (!before.endsWith(streamed)) continue;
        const shown = b.slice(before.length - streamed.length, i + whole.length);
        if (sources.some((s) => s.includes(shown)) || reported.has(`twice:${e.index}:${whole}`)) continue;
        reported.add(`twice:${e.index}:${whole}`);
        findings.push(finding(id, 'streamed-text-repeated', at(e, '/content'), `event ${e.index} shows the ${streamed.length} characters ${t.author} streamed as partial chunks and then the aggregated text of frame[${t.frame}] that repeats them (${(shown.length / whole.length).toFixed(3)}x the text)`, clip(whole), clip(shown)));
      }
    }
  }
  return [judge(id, obs.scenario.id, findings)];
}
