/**
 * The independent small model: a generated run script in, the `expect` a scripted scenario would
 * carry out. It shares no code with the mock's renderer or the reference transformer; it restates
 * the facts they implement, from their sources, at the level of the step kinds a generated run
 * uses:
 *
 * - frames (adk-wire-format §5a-§5e, adk-python-facts §3.1-§3.2): one event per non-streaming LLM
 *   call; adk-js streaming sends the chunks, then the aggregated final (text only) or the split-off
 *   text and the calls event, and after the tool round a metadata-only event; Python's progressive
 *   SSE sends the chunks, one call preview, then one aggregated event (a last text chunk that came
 *   with the calls is no chunk of its own, adk-docs PR #2076; a turn whose usage adk-js dropped has
 *   no metadata-only event, adk-js #645; previews under other ids change no count); a tool round is one merged
 *   event; an error event or error line is one frame; `/run_sse_enhanced` adds `[DONE]`. After a
 *   transfer the coordinator's metadata-only event waits until the sub-agent's whole run is over (dropped after an error line)
 *   (§5e: the sub-agent runs inside the coordinator's step), here: after its next model turn.
 * - outcome and completionPoint (docs/scenarios.md): the last step decides.
 * - briefings (docs/briefing-mapping.md): THINKING per agent, DELEGATING / EXECUTING per call,
 *   an INSIGHT per specialist result with the score and sources its text states, an ALERT per
 *   failed call and per model error the run goes on after, SYNTHESIZING once per answer phase of
 *   an agent whose calls were answered, and one terminal event.
 */
import type { BriefingOutline, GenExpect, GenScenario, GenStep } from './types.ts';

type Call = { name: string; args: Record<string, unknown> };

function callKind(call: Call): 'transfer' | 'specialist' | 'tool' {
  if (call.name === 'transfer_to_agent') return 'transfer';
  const keys = Object.keys(call.args);
  return keys.length === 1 && keys[0] === 'request' && typeof call.args.request === 'string' ? 'specialist' : 'tool';
}

/** The score and sources a specialist's result states, in the exact lines calls.ts writes. */
function statedProof(result: string): Pick<BriefingOutline, 'confidence' | 'citations' | 'citationSources'> {
  const score = /^\*\*Confidence:\*\* (\d+)%$/m.exec(result);
  const sources = /^\*\*Source:\*\* (.+)$/m.exec(result)?.[1]?.split(', ') ?? [];
  return { confidence: score ? Number(score[1]) / 100 : null, citations: sources.length, ...(sources.length > 0 ? { citationSources: sources } : {}) };
}

function errorFrameExpect(step: Extract<GenStep, { errorFrame: unknown }>['errorFrame']): Record<string, unknown> {
  if (step.style === 'python-structured') return { error: `ValueError: ${step.message}` };
  if (step.style === 'python-legacy-unescaped') {
    // Gen A interpolates the message unescaped: with a quote in it the line is not JSON.
    const data = `{"error": "${step.message}"}`;
    try { JSON.parse(data); } catch { return { raw: data }; }
  }
  return { error: step.message };
}

export function expectFor(s: Omit<GenScenario, 'expect'>): GenExpect {
  const js = s.dialect === 'adk-js';
  const streaming = s.request.streaming;
  const enhanced = s.request.endpoint === '/run_sse_enhanced';
  const outline: BriefingOutline[] = [];
  const thinking = new Set<string>();
  const callers = new Set<string>();
  let frames = 0;
  let metadataOwed = 0;
  let metadataAfterTransfer = 0;
  let transferTo: string | undefined;
  let lastCalls: Call[] = [];
  let synthesizing = false;
  let candidate: { author: string; text: string } | undefined;
  let pendingError: string | undefined;
  let errorFrame: Record<string, unknown> | undefined;
  let last: 'answer' | 'error' | 'cut' = 'cut';

  const think = (author: string) => {
    if (!thinking.has(author)) { thinking.add(author); outline.push({ type: 'STATUS', state: 'THINKING', source_agent: author }); }
  };
  const flushCandidate = () => {
    if (candidate) outline.push({ type: 'INSIGHT', source_agent: candidate.author });
    candidate = undefined;
  };
  const flushError = () => {
    if (pendingError !== undefined) outline.push({ type: 'ALERT', source_agent: pendingError });
    pendingError = undefined;
  };

  for (const step of s.upstream.steps) {
    if ('model' in step) {
      const m = step.model;
      const chunks = m.text === undefined ? 0 : (m.chunks?.length ?? 1);
      const calls = m.calls ?? [];
      // The coordinator's report owed from a transfer comes once the sub-agent's whole run is over:
      // before the next model turn of another agent.
      if (m.author !== transferTo) { frames += metadataAfterTransfer; metadataAfterTransfer = 0; }
      // A last text chunk that came with the calls is no delta of its own (adk-docs PR #2076): adk-js
      // sends its text only in the split-off text event, Python in the call preview chunk.
      const merged = streaming && m.callsWithLastChunk === true && calls.length > 0 && chunks > 0 ? 1 : 0;
      if (!streaming) frames += 1;
      else if (js) {
        frames += metadataOwed;
        metadataOwed = 0;
        if (m.truncate) frames += chunks;
        else if (calls.length === 0) frames += chunks + 1;
        // adk-js #645: a turn whose usage never reached an event has no trailing usage report either.
        else { frames += chunks - merged + (chunks > 0 ? 1 : 0) + 1; metadataOwed = m.usageMissing === true ? 0 : 1; }
      } else frames += chunks - merged + (calls.length > 0 ? 1 : 0) + (m.truncate ? 0 : 1);

      think(m.author);
      if (m.truncate && streaming) { last = 'cut'; continue; }
      flushError();
      flushCandidate();
      if (calls.length > 0) {
        synthesizing = false;
        lastCalls = calls;
        for (const call of calls) {
          const kind = callKind(call);
          outline.push({ type: 'STATUS', state: kind === 'tool' ? 'EXECUTING' : 'DELEGATING', source_agent: m.author });
        }
        last = 'cut';
      } else {
        if (callers.has(m.author) && !synthesizing) { synthesizing = true; outline.push({ type: 'STATUS', state: 'SYNTHESIZING', source_agent: m.author }); }
        candidate = { author: m.author, text: m.text ?? '' };
        last = 'answer';
      }
    } else if ('tools' in step) {
      const t = step.tools;
      frames += 1;
      if (t.transferToAgent !== undefined) { metadataAfterTransfer = metadataOwed; transferTo = t.transferToAgent; } else frames += metadataOwed;
      metadataOwed = 0;
      flushError();
      flushCandidate();
      callers.add(t.author);
      t.responses.forEach((r, j) => {
        const kind = callKind(lastCalls[j] ?? { name: r.name, args: {} });
        const failed = typeof r.response.error === 'string';
        if (kind === 'transfer') return;
        if (failed) outline.push({ type: 'ALERT', source_agent: kind === 'specialist' ? r.name : t.author, confidence: 0 });
        else if (kind === 'specialist') outline.push({ type: 'INSIGHT', source_agent: r.name, ...(enhanced ? {} : statedProof(String(r.response.result))) });
      });
      last = 'cut';
    } else if ('modelError' in step) {
      frames += 1;
      metadataOwed = 0;
      think(step.modelError.author);
      flushCandidate();
      flushError();
      pendingError = step.modelError.author;
      last = 'error';
    } else {
      // An error line is the server's last word: no report follows it.
      frames += 1;
      metadataOwed = 0;
      metadataAfterTransfer = 0;
      flushCandidate();
      flushError();
      errorFrame = errorFrameExpect(step.errorFrame);
      last = 'error';
      break;
    }
  }
  frames += metadataOwed + metadataAfterTransfer + (enhanced ? 1 : 0);

  const outcome: GenExpect['outcome'] = errorFrame ? 'error' : last === 'answer' ? 'complete' : last;
  if (errorFrame) outline.push({ type: 'STATUS', state: 'ERROR' });
  else if (outcome === 'complete' && candidate) outline.push({ type: 'INSIGHT', state: 'COMPLETE', source_agent: candidate.author });
  else outline.push({ type: 'STATUS', state: 'ERROR', ...(pendingError !== undefined ? { source_agent: pendingError } : {}) });

  return {
    status: 200,
    outcome,
    frames,
    completionPoint: outcome === 'cut' ? null : frames - 1,
    ...(outcome === 'complete' && candidate ? { finalText: candidate.text } : {}),
    ...(errorFrame ? { errorFrame } : {}),
    briefings: outline,
  };
}
