/**
 * Small in-test ADK streams for the transformer, client and completion tests, built from the
 * research notes (adk-wire-format §4-§6 for adk-js 2.0.0, adk-python-facts §2-§3 for Python's
 * progressive SSE). The scenario corpus and the mock's renderer are the full version; these keep
 * unit tests independent of them.
 */

export type Step =
  | { model: { author: string; text?: string; calls?: Array<{ name: string; args: Record<string, unknown> }>; finishReason?: string } }
  | { tools: { author: string; responses: Array<{ name: string; response: Record<string, unknown> }>; transferToAgent?: string; skipSummarization?: boolean } }
  | { modelError: { author: string; errorCode: string; errorMessage?: string } }
  | { errorFrame: { message: string } }
  | { raw: string };

export type RenderOptions = { dialect: 'adk-js' | 'adk-python'; streaming: boolean; invocationId?: string; audit?: (stepIndex: number) => unknown[] | undefined };

const actions = () => ({ stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} });

/** Frame payload texts (`data:` field values) of one run. */
export function renderRun(steps: Step[], options: RenderOptions): string[] {
  const js = options.dialect === 'adk-js';
  const invocationId = options.invocationId ?? 'e-3f0d0c4e-7f1b-4c8e-9a55-1b2c3d4e5f60';
  let n = 0;
  let callN = 0;
  const pendingCalls: Array<{ id: string; name: string }> = [];
  const out: string[] = [];
  const id = () => (js ? `ev${String(++n).padStart(6, '0')}` : `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`);
  const ts = () => (js ? 1795318500000 + n * 10 : 1795318500 + n / 100);
  const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  const push = (event: Record<string, unknown>, step: number) => {
    const audit = options.audit?.(step);
    out.push(JSON.stringify(audit ? { ...event, _audit_metadata: audit } : event));
  };
  // Each dialect's key order (design.md "Dialect facts").
  const model = (author: string, parts: unknown[], extra: Record<string, unknown>, step: number) => {
    const base = { invocationId, author, id: id(), actions: actions(), longRunningToolIds: [], timestamp: ts(), content: { role: 'model', parts } };
    if (js) push({ ...base, ...extra }, step);
    else {
      const { partial, finishReason, usageMetadata, ...rest } = extra;
      push({ content: base.content, ...(partial !== undefined ? { partial } : {}), ...(finishReason !== undefined ? { finishReason } : {}), ...(usageMetadata !== undefined ? { usageMetadata } : {}), ...rest, invocationId, author, actions: base.actions, ...(parts.some((p) => (p as Record<string, unknown>).functionCall) ? { longRunningToolIds: [] } : {}), id: base.id, timestamp: base.timestamp }, step);
    }
  };
  const words = (text: string) => text.match(/\S+\s*/g) ?? [text];
  const chunks = (text: string) => { const w = words(text); const c: string[] = []; for (let i = 0; i < w.length; i += 3) c.push(w.slice(i, i + 3).join('')); return c; };

  steps.forEach((step, index) => {
    if ('model' in step) {
      const { author, text, calls = [], finishReason = 'STOP' } = step.model;
      const callParts = calls.map((c) => { const cid = `adk-00000000-0000-4000-8000-${String(++callN).padStart(12, '0')}`; pendingCalls.push({ id: cid, name: c.name }); return { functionCall: js ? { name: c.name, args: c.args, id: cid } : { id: cid, args: c.args, name: c.name } }; });
      if (!options.streaming) {
        model(author, [...(text ? [{ text }] : []), ...callParts], { usageMetadata: usage, finishReason }, index);
        return;
      }
      const pieces = text ? chunks(text) : [];
      if (js) {
        // adk-js: chunks partial, the last one with finishReason when no calls; text before calls split off (§5b, §5d).
        pieces.forEach((p, i) => model(author, [{ text: p }], { usageMetadata: usage, ...(i === pieces.length - 1 && calls.length === 0 ? { finishReason } : {}), partial: true }, index));
        if (text && calls.length > 0) model(author, [{ text }], { usageMetadata: usage, partial: false }, index);
        if (calls.length > 0) model(author, callParts, { usageMetadata: usage, finishReason, partial: false }, index);
        else if (text) model(author, [{ text }], { usageMetadata: usage, finishReason, partial: false }, index);
      } else {
        // Python progressive: every chunk partial (call previews too, with other ids), one aggregated final (§3.2).
        pieces.forEach((p) => model(author, [{ text: p }], { partial: true }, index));
        calls.forEach((c) => model(author, [{ functionCall: { id: `adk-preview-${++callN}`, args: c.args, name: c.name } }], { partial: true }, index));
        model(author, [...(text ? [{ text }] : []), ...callParts], { partial: false, finishReason, usageMetadata: usage }, index);
      }
      return;
    }
    if ('tools' in step) {
      const { author, responses, transferToAgent, skipSummarization } = step.tools;
      const parts = responses.map((r) => { const call = pendingCalls.shift(); return { functionResponse: { id: call?.id, name: r.name, response: r.response } }; });
      const acts = { ...actions(), ...(transferToAgent ? { transferToAgent } : {}), ...(skipSummarization ? { skipSummarization: true } : {}) };
      if (js) push({ invocationId, author, content: { role: 'user', parts }, actions: acts, id: id(), longRunningToolIds: [], timestamp: ts() }, index);
      else push({ content: { role: 'user', parts }, invocationId, author, actions: acts, id: id(), timestamp: ts() }, index);
      // adk-js streaming: the aggregator's usage report follows each tool round (§5c).
      if (js && options.streaming) push({ invocationId, author, id: id(), actions: actions(), longRunningToolIds: [], timestamp: ts(), usageMetadata: usage, finishReason: 'STOP', partial: false }, index);
      return;
    }
    if ('modelError' in step) {
      const { author, errorCode, errorMessage } = step.modelError;
      if (js) push({ invocationId, author, errorCode, ...(errorMessage !== undefined ? { errorMessage } : {}), id: id(), actions: actions(), longRunningToolIds: [], timestamp: ts() }, index);
      else push({ errorCode, ...(errorMessage !== undefined ? { errorMessage } : {}), invocationId, author, actions: actions(), id: id(), timestamp: ts() }, index);
      return;
    }
    if ('errorFrame' in step) { out.push(js ? JSON.stringify({ error: step.errorFrame.message }) : `{"error": ${JSON.stringify(step.errorFrame.message)}}`); return; }
    out.push(step.raw);
  });
  return out;
}

/** The SSE body of a run: the dialects' exact framing (`data: ` + payload + `\n\n`). */
export const sseBody = (frames: string[]): string => frames.map((f) => `data: ${f}\n\n`).join('');

// ---- seed 001's Cedar Creek run (specialist texts quoted from the capture) ----

export const cedarTexts = {
  burn_analyst: '### 1. Summary\nCedar Creek burned 127,283 acres; 4 of 8 sectors are high severity.\n\n### 5. Confidence & Source\n**Confidence:** 92%\n**Source:** MTBS, Imagery date: 2022-09-15\n',
  trail_assessor: '### 1. Summary\n5 trails with 15 damage points; WL-001 is TYPE_IV.\n\n### 4. Confidence & Source\n**Confidence:** 90%\n**Source:** Cedar Creek field assessment 2022-10-25\n',
  cruising_assistant: '### 1. Summary\nSalvage window is 18 months for Douglas-fir.\n\n### 4. Confidence & Source\n**Confidence:** 91%\n**Source:** Cedar Creek timber plot data, PNW salvage deterioration models, Regional market analysis 2025\n',
  nepa_advisor: '### 1. Summary\nTrail repair fits a categorical exclusion; timber salvage needs an EA.\n\n**Regulatory Basis:** 36 CFR 220.6(e)(13)\n**Confidence:** High (90%) - Direct CFR citations\n\n### Timber\n**Regulatory Basis:** 36 CFR 220.7; FSM 1950\n**Confidence:** High (95%) - Direct CFR and FSM citations\n',
  final: '**Fire Severity:** 4 of 8 sectors high severity (Confidence: 92%)\n\n**Infrastructure Damage:** 15 damage points on 5 trails (Confidence: 90%)\n\n**Timber Salvage:** 18-month window (Confidence: 91%)\n\n**NEPA Pathway:** CE for trails, EA for salvage (Confidence: 95% for timber, 90% for trails)\n\n**Overall Confidence:** 90%\n\n**Recommended Actions:**\n1. Deploy BAER team to high-severity sectors.\n2. Establish hazard zones on WL-001.',
};

const specialists = ['burn_analyst', 'trail_assessor', 'cruising_assistant', 'nepa_advisor'] as const;

/** adk-wire-format §5d: 4 AgentTools in one turn, then a 2-call follow-up, then the synthesis. */
export const cedarCreekSteps: Step[] = [
  { model: { author: 'coordinator', text: 'Delegating to all four specialists.', calls: specialists.map((name) => ({ name, args: { request: 'fire_id:cedar-creek-2022' } })) } },
  { tools: { author: 'coordinator', responses: specialists.map((name) => ({ name, response: { result: cedarTexts[name] } })) } },
  { model: { author: 'coordinator', calls: [{ name: 'burn_analyst', args: { request: 'Which sectors need BAER first?' } }, { name: 'trail_assessor', args: { request: 'Which trails close?' } }] } },
  { tools: { author: 'coordinator', responses: [
    { name: 'burn_analyst', response: { result: 'CORE-1 and NW-4 first.\n\n**Confidence:** 88%\n**Source:** MTBS' } },
    { name: 'trail_assessor', response: { result: 'Close WL-001 and Hills Creek.\n\n**Confidence:** 90%\n**Source:** Cedar Creek field assessment 2022-10-25' } },
  ] } },
  { model: { author: 'coordinator', text: cedarTexts.final } },
];

// ---- helpers for assertions ----

/** A briefing without what legitimately differs between two runs of the same stream. */
export function comparable(events: ReadonlyArray<Record<string, unknown>>): unknown[] {
  const ids = new Map<unknown, string>();
  for (const e of events) ids.set(e.event_id, `#${ids.size}`);
  return events.map(({ event_id, parent_event_id, timestamp, correlation_id, ...rest }) => ({ ...rest, event_id: ids.get(event_id), parent_event_id: parent_event_id === null ? null : ids.get(parent_event_id) ?? 'dangling' }));
}
