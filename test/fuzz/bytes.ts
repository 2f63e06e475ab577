/**
 * Byte and text arbitraries for fuzzing: raw bytes, SSE-shaped byte soup (field names, line
 * ends, JSON fragments, multi-byte and invalid UTF-8 mixed), and ADK-shaped JSON values whose
 * every field may have the wrong type. Real frames from generated runs are mixed in and corrupted,
 * so the fuzz reaches the deep branches and not only the first `JSON.parse`.
 */
import fc from 'fast-check';

const encoder = new TextEncoder();

/** Pieces an SSE stream is made of, and pieces that break it. */
const ssePiece: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('data:', 'data: ', 'event: ', 'id: ', 'retry: 10', ': comment', '\n', '\r', '\r\n', '\n\n', '{"a":1}', '{"error":"x"}', '[DONE]', '{}', '{"invocationId":"e-1","author":"a","content":{"parts":[{"text":"hi"}]}}', 'é', '—', '🔥', '\u2028', '\u0000').map((t) => encoder.encode(t)) },
  { weight: 1, arbitrary: fc.constantFrom([0xff], [0xc3], [0xe2, 0x80], [0xf0, 0x9f, 0x94], [0xef, 0xbb, 0xbf], [0xed, 0xa0, 0x80]).map((b) => Uint8Array.from(b)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 16 }) },
);

export const sseBytesArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.array(ssePiece, { maxLength: 60 }).map((pieces) => Uint8Array.from(pieces.flatMap((p) => [...p]))),
  fc.uint8Array({ maxLength: 512 }),
);

/** Split points for a body (taken modulo its length). */
export const offsetsArb = fc.array(fc.nat(), { maxLength: 20 });

export function isValidUtf8(bytes: Uint8Array): boolean {
  try { new TextDecoder('utf-8', { fatal: true }).decode(bytes); return true; } catch { return false; }
}

/** Any value in an ADK field's place: the right type sometimes, the wrong one often. */
const anyField: fc.Arbitrary<unknown> = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 2 }));

const partArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ text: fc.oneof(fc.string(), anyField), thought: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: ['text'] }),
  fc.record({ functionCall: fc.oneof(anyField, fc.record({ name: fc.oneof(fc.constantFrom('burn_analyst', 'transfer_to_agent', 'get_fire_perimeter'), anyField), args: fc.oneof(fc.record({ request: fc.string() }), fc.record({ agentName: fc.string() }), fc.record({ agent_name: anyField }), anyField), id: fc.oneof(fc.constantFrom('c1', 'c2'), anyField) }, { requiredKeys: [] })) }),
  fc.record({ functionResponse: fc.oneof(anyField, fc.record({ name: fc.oneof(fc.constantFrom('burn_analyst', 'transfer_to_agent'), anyField), response: fc.oneof(fc.record({ result: fc.oneof(fc.string(), anyField) }), fc.record({ error: anyField }), anyField), id: fc.oneof(fc.constantFrom('c1', 'c2'), anyField) }, { requiredKeys: [] })) }),
  anyField,
);

/** An object shaped like an ADK event, each field present or not, right-typed or not. */
export const adkishArb: fc.Arbitrary<unknown> = fc.record({
  invocationId: fc.oneof(fc.constant('e-1'), anyField),
  author: fc.oneof(fc.constantFrom('coordinator', 'burn_analyst'), anyField),
  id: fc.oneof(fc.constantFrom('ev1', 'ev2'), anyField),
  partial: fc.oneof(fc.boolean(), anyField),
  finishReason: fc.oneof(fc.constantFrom('STOP', 'SAFETY'), anyField),
  errorCode: fc.oneof(fc.constantFrom('UNKNOWN_ERROR', 'SAFETY', '500'), anyField),
  errorMessage: anyField,
  longRunningToolIds: fc.oneof(fc.array(fc.constantFrom('c1', 'c2'), { maxLength: 2 }), anyField),
  content: fc.oneof(fc.record({ role: fc.oneof(fc.constantFrom('model', 'user'), anyField), parts: fc.oneof(fc.array(partArb, { maxLength: 3 }), anyField) }, { requiredKeys: [] }), anyField),
  actions: fc.oneof(fc.record({ transferToAgent: anyField, skipSummarization: anyField, stateDelta: anyField }, { requiredKeys: [] }), anyField),
  _audit_metadata: fc.oneof(fc.array(fc.record({ event_type: fc.oneof(fc.constantFrom('tool_response', 'tool_error', 'data_load', 'reasoning_step'), anyField), payload: anyField, agent: anyField, tool_name: anyField, confidence: anyField }, { requiredKeys: [] }), { maxLength: 3 }), anyField),
  error: anyField,
}, { requiredKeys: [] });

/** Cut a text at a generated position (a frame cut short), or replace one character. */
export const corruptArb = fc.record({ kind: fc.constantFrom('truncate', 'replace', 'keep'), at: fc.nat(), with: fc.constantFrom('"', '\\', '}', 'x', '\u0000', '\uFFFD', '') });

export function corrupt(text: string, c: { kind: string; at: number; with: string }): string {
  if (c.kind === 'keep' || text.length === 0) return text;
  const at = c.at % text.length;
  return c.kind === 'truncate' ? text.slice(0, at) : text.slice(0, at) + c.with + text.slice(at + 1);
}

/**
 * A gap of core/sse.ts today (reported): eventsource-parser holds a CR that ends a chunk (it may be
 * the first half of a CRLF), and a next chunk without any line end does not release it, so an
 * event closed by that CR is dispatched only at the next line end, and at EOF core/sse.ts reports
 * it as unterminated and drops it (`data: x\r\r` + `z`: no frame; in one piece: frame `x`). The
 * fix belongs in core/sse.ts `feed`: when the previous text ended with CR and the next one does not
 * start with LF, feed an LF first (the same line end, as `end()` already does). Until then the
 * split laws join such a chunk to the next one; set this to false once core/sse.ts is fixed.
 */
export const sseHeldCrGap = false;

export function avoidHeldCrGap(pieces: readonly Uint8Array[]): Uint8Array[] {
  if (!sseHeldCrGap) return [...pieces];
  // The gap is about the decoded text the parser sees: a CR may end a piece's text even when the
  // piece's last bytes are the start of a multi-byte character.
  const decoder = new TextDecoder('utf-8');
  const out: Uint8Array[] = [];
  let heldCr = false;
  for (const p of pieces) {
    const text = decoder.decode(p, { stream: true });
    if (heldCr && out.length > 0 && !/[\r\n]/.test(text)) out[out.length - 1] = Buffer.concat([out[out.length - 1] as Uint8Array, p]);
    else out.push(p);
    if (text.length > 0) heldCr = text.endsWith('\r');
  }
  return out;
}
