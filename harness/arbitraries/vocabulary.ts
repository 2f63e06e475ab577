/**
 * The smallest arbitraries a generated ADK run is made of: agent and tool names, words, texts and
 * their streaming splits, sources, scores. Texts mix what breaks naive encoders and splitters
 * (quotes, backslashes, escaped line breaks, non-ASCII, U+2028, astral characters, `data:`) but
 * never the markers the transformer reads a proof layer from (`**Confidence:**`, `**Source:**`,
 * `%`, `(confidence:`), so a run's proof layer is exactly what the generator wrote into it.
 */
import fc from 'fast-check';

/** Agents called as tools (AgentTool): their declaration is `{request: STRING}` (adk-wire-format §8). */
export const specialistNames = ['burn_analyst', 'trail_assessor', 'cruising_assistant', 'nepa_advisor'] as const;
/** Plain function tools. */
export const toolNames = ['get_fire_perimeter', 'fetch_mtbs_severity', 'classify_damage', 'lookup_closures'] as const;
/** Root agents. Never a specialist or sub-agent name, so authors tell the agents apart. */
export const coordinatorNames = ['coordinator', 'recovery_coordinator', 'assistant'] as const;
/** Sub-agents a coordinator transfers to (adk-wire-format §5e). */
export const subAgentNames = ['trail_assessor', 'burn_analyst', 'field_ops'] as const;
/** Source names that are one citation each: no comma, semicolon, colon or date inside. */
export const sourceNames = ['MTBS', 'Sentinel-2 imagery', 'NIFC incident summary', 'USFS trail inventory', 'Field survey notes', 'Regional market analysis'] as const;

const plainWords = ['Cedar', 'Creek', 'fire', 'burned', 'acres', 'trail', 'bridge', 'closed', 'severity', 'salvage', 'timber', 'washout', 'contained', 'recovery', 'briefing', 'crews', 'report', 'ridge'];
const awkwardWords = ['127,283', '—', '≈199', 'naïve', 'WL-001', '"quoted"', 'back\\slash', 'tab\there', 'line\nbreak', 'crlf\r\nend', 'sep\u2028arator', '🔥', '<tag>', '{json}', 'data:', 'nul\u0000byte', '[DONE]?'];

export const wordArb: fc.Arbitrary<string> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: fc.constantFrom(...plainWords), weight: 4 },
  { arbitrary: fc.constantFrom(...awkwardWords), weight: 1 },
);

/** A short text that starts with a plain word, so it always says something (a summary line exists). */
export const textArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...plainWords), fc.array(wordArb, { maxLength: 8 }))
  .map(([first, rest]) => [first, ...rest].join(' '));

/** A model text with the split a stream delivers it in: the chunks join to the text exactly, none is empty. */
export type ChunkedText = { text: string; chunks: string[] };

export const chunkedTextArb: fc.Arbitrary<ChunkedText> = fc
  .array(textArb, { minLength: 1, maxLength: 4 })
  .map((pieces) => {
    const chunks = pieces.map((p, i) => (i < pieces.length - 1 ? `${p} ` : p));
    return { text: chunks.join(''), chunks };
  });

/** A stated score in percent (1..100: 0 is the failure tier, which a tool error already covers). */
export const percentArb: fc.Arbitrary<number> = fc.integer({ min: 1, max: 100 });

export const sourcesArb: fc.Arbitrary<string[]> = fc.subarray([...sourceNames], { minLength: 1, maxLength: 3 });

/** Error-frame and errorMessage texts, some with quotes (Python Gen A then writes invalid JSON), none with a line break. */
export const errorMessageArb: fc.Arbitrary<string> = fc.constantFrom(
  'MTBS service unavailable (HTTP 503)',
  'Tool "fetch_mtbs_severity" failed: upstream said "HTTP 503"',
  'socket hang up',
  'Max number of llm calls limit of 500 exceeded',
  'Quota exceeded — retry later',
);

/** errorCode values ADK puts on model error events (adk-wire-format §6, adk-python-facts §2.1). */
export const errorCodeArb: fc.Arbitrary<string> = fc.constantFrom('UNKNOWN_ERROR', '500', '429', '503', 'MALFORMED_FUNCTION_CALL', 'SAFETY');

export const userMessageArb: fc.Arbitrary<string> = fc.constantFrom(
  'Give me a recovery briefing for Cedar Creek Fire',
  'What is the damage on the Cedar Creek trails?',
  'How severe was the Cedar Creek burn?',
);
