/**
 * adk-go 2.0.0's run body: `decodeRequestBody` in google/adk-go
 * `server/adkrest/controllers/runtime.go`@0a51e153ad5a72ad8a003c5c0ef8d8e98f88139e is
 * `json.NewDecoder(req.Body)` with `DisallowUnknownFields()` into `models.RunAgentRequest`
 * (`server/adkrest/internal/models/runtime.go`, same commit): appName, userId, sessionId,
 * newMessage (genai.Content), streaming, stateDelta, functionCallEventId. The content type is never
 * looked at; keys match the json tags case-insensitively (encoding/json); a snake_case key is an
 * unknown field. Nothing is required: a missing id stays "" and fails the session lookup.
 *
 * The first type error or unknown field in document order wins (the decoder saves the first and
 * goes on). genai.Content and genai.Part (googleapis/go-genai `types.go`@6fd3e65e) have no
 * UnmarshalJSON, so unknown keys are refused inside `newMessage` and its parts too; values below
 * a part's own fields are not checked here.
 */
import { goKind, goScanFirstValue } from '../core/dialects/go-json-errors.ts';
import { isPlainObject } from './request-body.ts';
import type { RunRequest } from './run-request.ts';

export type GoDecodeOutcome = { ok: true; run: RunRequest } | { ok: false; message: string };

type Field = { name: string; type: string; check: (v: unknown) => boolean };
const str = (v: unknown): boolean => typeof v === 'string';

const REQUEST_FIELDS: readonly Field[] = [
  { name: 'appName', type: 'string', check: str },
  { name: 'userId', type: 'string', check: str },
  { name: 'sessionId', type: 'string', check: str },
  { name: 'newMessage', type: 'genai.Content', check: isPlainObject },
  { name: 'streaming', type: 'bool', check: (v) => typeof v === 'boolean' },
  { name: 'stateDelta', type: 'map[string]interface {}', check: isPlainObject },
  { name: 'functionCallEventId', type: 'string', check: str },
];

/** genai.Part's json tags (types.go@6fd3e65e); only `text` and `thought` are type-checked. */
const PART_KEYS = ['mediaResolution', 'codeExecutionResult', 'executableCode', 'fileData', 'functionCall', 'functionResponse', 'inlineData', 'text', 'thought', 'thoughtSignature', 'videoMetadata', 'toolCall', 'toolResponse', 'partMetadata', 'audioTranscription'];

/** encoding/json: an exact tag match first, else a case-insensitive one. */
function fieldOf<T extends { name: string }>(fields: readonly T[], key: string): T | undefined {
  return fields.find((f) => f.name === key) ?? fields.find((f) => f.name.toLowerCase() === key.toLowerCase());
}

const typeError = (kind: string, path: string, type: string): string => `json: cannot unmarshal ${kind} into Go struct field RunAgentRequest.${path} of type ${type}`;

/** The first decode error inside `newMessage`, or undefined. */
function contentError(content: Record<string, unknown>): string | undefined {
  const fields = [{ name: 'parts' }, { name: 'role' }];
  for (const [key, value] of Object.entries(content)) {
    const field = fieldOf(fields, key);
    if (!field) return `json: unknown field ${JSON.stringify(key)}`;
    if (value === null) continue;
    if (field.name === 'role' && typeof value !== 'string') return typeError(goKind(value), 'newMessage.role', 'string');
    if (field.name !== 'parts') continue;
    if (!Array.isArray(value)) return typeError(goKind(value), 'newMessage.parts', '[]*genai.Part');
    for (const part of value) {
      if (part === null) continue;
      if (!isPlainObject(part)) return typeError(goKind(part), 'newMessage.parts', 'genai.Part');
      for (const [pk, pv] of Object.entries(part)) {
        const name = fieldOf(PART_KEYS.map((n) => ({ name: n })), pk)?.name;
        if (!name) return `json: unknown field ${JSON.stringify(pk)}`;
        if (pv === null) continue;
        if (name === 'text' && typeof pv !== 'string') return typeError(goKind(pv), 'newMessage.parts.text', 'string');
        if (name === 'thought' && typeof pv !== 'boolean') return typeError(goKind(pv), 'newMessage.parts.thought', 'bool');
      }
    }
  }
  return undefined;
}

/** Decode a run body as adk-go does; `message` is the decoder's error text. */
export function decodeGoRunRequest(body: string): GoDecodeOutcome {
  const bytes = new TextEncoder().encode(body);
  const scan = goScanFirstValue(bytes);
  if (!scan.ok) return { ok: false, message: scan.message };
  // Only the first value is decoded; what follows it is never read.
  const value: unknown = JSON.parse(new TextDecoder().decode(bytes.subarray(0, scan.end)));
  const got: Record<string, unknown> = {};
  if (value !== null) {
    if (!isPlainObject(value)) return { ok: false, message: `json: cannot unmarshal ${goKind(value)} into Go value of type models.RunAgentRequest` };
    for (const [key, v] of Object.entries(value)) {
      const field = fieldOf(REQUEST_FIELDS, key);
      if (!field) return { ok: false, message: `json: unknown field ${JSON.stringify(key)}` };
      if (v === null) continue;
      if (!field.check(v)) return { ok: false, message: typeError(goKind(v), field.name, field.type) };
      if (field.name === 'newMessage') {
        const inner = contentError(v as Record<string, unknown>);
        if (inner) return { ok: false, message: inner };
      }
      got[field.name] = v;
    }
  }
  const message = got['newMessage'] as Record<string, unknown> | undefined;
  const parts = message?.['parts'];
  return {
    ok: true,
    run: {
      appName: typeof got['appName'] === 'string' ? got['appName'] : '',
      userId: typeof got['userId'] === 'string' ? got['userId'] : '',
      sessionId: typeof got['sessionId'] === 'string' ? got['sessionId'] : '',
      // NewMessage is a struct, never nil: the runner always gets a message (maybe empty).
      hasMessage: true,
      partCount: Array.isArray(parts) ? parts.length : 0,
      streaming: got['streaming'] === true,
      stateDelta: isPlainObject(got['stateDelta']) ? got['stateDelta'] : undefined,
    },
  };
}
