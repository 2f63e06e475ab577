/**
 * The fault engine: `applyFaults(plan, faults)` turns a rendered plan into the misbehaving
 * response a scenario asks for. Each fault is a pure plan transformation with a catalog entry
 * (description, parameters, example, and what it keeps of the stream's meaning).
 *
 * Faults run in phases, whatever order a scenario lists them in, so combinations are well
 * defined: content rewrites first (in listed order), then truncation, re-chunking, timing, and
 * the response's status/ending. Frame numbers count the frames a reader dispatches after the
 * content rewrites (a duplicated frame shifts the ones after it).
 */
import { encodeAdkFrame } from '../../core/sse.ts';
import { frameOf, framesOfBytes, utf8 } from './frames.ts';
import type { Timeline } from './timeline.ts';
import { applyEdits, cutAt, frameRanges, toChunks, toTimeline, truncate } from './timeline.ts';
import type { PlanEnd, RenderedFrame, ReplayPlan } from './types.ts';

export type FaultSpec = { name: string; [param: string]: unknown };

type ParamType = 'integer' | 'number' | 'string' | 'integer[]';
export type FaultParam = { type: ParamType; description: string; required?: boolean; min?: number; max?: number; values?: readonly string[]; default?: unknown };

/**
 * `same-frames`: a reader dispatches exactly the same frames. `same-json`: the same JSON values,
 * other data text. `timing`: same bytes, other waits. `breaks`: meant to change what a reader sees.
 */
export type FaultEffect = 'same-frames' | 'same-json' | 'timing' | 'breaks';
type Phase = 0 | 1 | 2 | 3 | 4;

export type FaultCatalogEntry = { description: string; params: Readonly<Record<string, FaultParam>>; example: FaultSpec; effect: FaultEffect };

type Working = { t: Timeline; frames: RenderedFrame[]; status: number; end: PlanEnd; headersDelayMs: number };
type Definition = FaultCatalogEntry & { phase: Phase; apply: (w: Working, p: Record<string, unknown>) => void };

const frameParam = (description: string): FaultParam => ({ type: 'integer', min: 0, required: true, description });
const LINE_END = /\r\n|\r|\n/g;

function frameRange(w: Working, frame: number, name: string): [number, number] {
  const ranges = frameRanges(w.t.body);
  const range = ranges[frame];
  if (!range) throw new TypeError(`fault ${name}: frame ${frame} does not exist; the stream has ${ranges.length} frames (0..${ranges.length - 1})`);
  return range;
}

/** Split a JSON text after each comma outside strings: the pieces joined with LF are still the same JSON. */
function splitAtStructuralCommas(json: string): string[] {
  const pieces: string[] = [];
  let inString = false;
  let from = 0;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === ',') { pieces.push(json.slice(from, i + 1)); from = i + 1; }
  }
  pieces.push(json.slice(from));
  return pieces;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

function indexOfBytes(bytes: Uint8Array, needle: string, from: number): number {
  const n = utf8(needle);
  outer: for (let i = from; i + n.length <= bytes.length; i++) {
    for (let j = 0; j < n.length; j++) if (bytes[i + j] !== n[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * After a fault that rewrites or cuts bytes, read the body again so each frame's `data` (and
 * `json`) is what a reader now dispatches; kinds and event names stay with their frames.
 */
function resync(w: Working): void {
  const read = framesOfBytes(w.t.body);
  const same = read.length === w.frames.length;
  w.frames = read.map((r, k) => {
    const old = same ? w.frames[k]! : r;
    const fresh = frameOf(r.data, r.event);
    const frame: RenderedFrame = { data: r.data, kind: old.kind };
    if (fresh.json !== undefined) frame.json = fresh.json;
    if (old.event !== undefined) frame.event = old.event;
    return frame;
  });
}

const definitions: Record<string, Definition> = {
  'line-endings': {
    description: 'Rewrites every line ending (LF, CR or CRLF) as CRLF, CR, or a mix that never puts CR before LF; all three are line ends to a WHATWG reader.',
    params: { style: { type: 'string', values: ['crlf', 'cr', 'mixed'], required: true, description: 'crlf, cr, or mixed (CRLF, LF, CR in turn)' } },
    example: { name: 'line-endings', style: 'crlf' }, effect: 'same-frames', phase: 0,
    apply(w, p) {
      // "mixed" cycles CRLF, LF, CR: a CR is followed by CRLF, so no CR+LF pair ever merges two line ends into one.
      const cycle = (p.style === 'crlf' ? ['\r\n'] : p.style === 'cr' ? ['\r'] : ['\r\n', '\n', '\r']).map(utf8);
      // CR and LF bytes never occur inside a UTF-8 sequence, so scanning bytes is safe even for invalid UTF-8.
      const body = w.t.body;
      const edits = [];
      for (let at = 0, n = 0; at < body.length; at++) {
        if (body[at] !== 0x0a && body[at] !== 0x0d) continue;
        const remove = body[at] === 0x0d && body[at + 1] === 0x0a ? 2 : 1;
        edits.push({ at, remove, insert: cycle[n++ % cycle.length]! });
        at += remove - 1;
      }
      w.t = applyEdits(w.t, edits);
    },
  },
  bom: {
    description: 'Starts the body with a UTF-8 byte order mark, which a WHATWG reader strips.',
    params: {}, example: { name: 'bom' }, effect: 'same-frames', phase: 0,
    apply(w) { w.t = applyEdits(w.t, [{ at: 0, remove: 0, insert: new Uint8Array([0xef, 0xbb, 0xbf]) }]); },
  },
  'double-bom': {
    description: 'Starts the body with two UTF-8 byte order marks (a BOM written in front of a body that had one). A WHATWG reader strips one: the second is the first character of the first line\'s field name (`\\uFEFFdata`), an unknown field, so the first frame is lost.',
    params: {}, example: { name: 'double-bom' }, effect: 'breaks', phase: 0,
    apply(w) { w.t = applyEdits(w.t, [{ at: 0, remove: 0, insert: new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]) }]); },
  },
  comments: {
    description: 'Writes a `: text` comment line before every `every`-th frame (frames 0, every, 2×every…), like a heartbeat, or with `place: inside` after that frame\'s first line, inside the event before its blank line (a keep-alive a proxy writes mid-event); readers ignore comments.',
    params: {
      text: { type: 'string', default: 'ping', description: 'the comment text (one line)' }, every: { type: 'integer', min: 1, default: 1, description: 'frames between comments' },
      place: { type: 'string', values: ['before', 'inside'], default: 'before', description: 'before the frame, or inside it after its first line' },
    },
    example: { name: 'comments', text: 'keep-alive', every: 2 }, effect: 'same-frames', phase: 0,
    apply(w, p) {
      const text = p.text as string;
      if (/[\r\n]/.test(text)) throw new TypeError('fault comments: text must be a single line (no CR or LF)');
      const body = w.t.body;
      // Inside: after the frame's first line end (CR, LF or CRLF; bytes, so invalid UTF-8 is safe), in that line end's style.
      const at = (start: number): { at: number; eol: string } => {
        if (p.place !== 'inside') return { at: start, eol: '\n' };
        let i = start;
        while (i < body.length && body[i] !== 0x0a && body[i] !== 0x0d) i++;
        const eol = body[i] === 0x0d ? (body[i + 1] === 0x0a ? '\r\n' : '\r') : '\n';
        return { at: i + eol.length, eol };
      };
      w.t = applyEdits(w.t, frameRanges(body).filter((_, k) => k % (p.every as number) === 0).map(([start]) => {
        const place = at(start);
        return { at: place.at, remove: 0, insert: utf8(`: ${text}${place.eol}`) };
      }));
    },
  },
  'multiline-data': {
    description: 'Re-encodes each JSON payload over several `data:` lines, split only after structural commas, so the joined data is the same JSON with line feeds between tokens.',
    params: {}, example: { name: 'multiline-data' }, effect: 'same-json', phase: 0,
    apply(w) {
      const edits = frameRanges(w.t.body).flatMap(([start, end]) => {
        let text: string;
        // Offsets are computed on decoded text: only a frame that is valid UTF-8 maps back to its bytes.
        try { text = strictDecoder.decode(w.t.body.subarray(start, end)); } catch { return []; }
        const dataLines = text.split(LINE_END).filter((l) => l.startsWith('data:'));
        if (dataLines.length !== 1) return [];
        const line = dataLines[0]!;
        const payload = line.startsWith('data: ') ? line.slice(6) : line.slice(5);
        try { JSON.parse(payload); } catch { return []; }
        const pieces = splitAtStructuralCommas(payload);
        if (pieces.length < 2) return [];
        const lineAt = text.indexOf(line);
        const eol = /\r\n|\r|\n/.exec(text.slice(lineAt + line.length))?.[0] ?? '\n';
        return [{ at: start + utf8(text.slice(0, lineAt)).length, remove: utf8(line).length, insert: utf8(pieces.map((piece) => `data: ${piece}`).join(eol)) }];
      });
      w.t = applyEdits(w.t, edits);
    },
  },
  'duplicate-frame': {
    description: 'Writes one frame twice in a row (a replayed or retried event).',
    params: { frame: frameParam('the frame to repeat') }, example: { name: 'duplicate-frame', frame: 1 }, effect: 'breaks', phase: 0,
    apply(w, p) {
      const frame = p.frame as number;
      const [start, end] = frameRange(w, frame, 'duplicate-frame');
      cutAt(w.t, end);
      w.t = applyEdits(w.t, [{ at: end, remove: 0, insert: w.t.body.slice(start, end) }]);
      cutAt(w.t, end);
      const copy = w.frames[frame];
      if (copy) w.frames.splice(frame + 1, 0, { ...copy });
    },
  },
  'invalid-utf8': {
    description: 'Puts a 0xFF byte (never valid UTF-8) inside one frame\'s first string value; a reader decodes it as U+FFFD.',
    params: { frame: frameParam('the frame to corrupt') }, example: { name: 'invalid-utf8', frame: 0 }, effect: 'breaks', phase: 0,
    apply(w, p) {
      const [start, end] = frameRange(w, p.frame as number, 'invalid-utf8');
      const bytes = w.t.body.subarray(start, end);
      const dataAt = indexOfBytes(bytes, 'data:', 0);
      const valueAt = indexOfBytes(bytes, '":"', Math.max(dataAt, 0));
      const inside = valueAt >= 0 ? valueAt + 3 : dataAt >= 0 ? dataAt + 6 : 0;
      w.t = applyEdits(w.t, [{ at: start + inside, remove: 0, insert: new Uint8Array([0xff]) }]);
    },
  },
  'done-sentinel': {
    description: 'Appends `data: [DONE]` (the OpenAI-style end marker ADK never sends) as its own write.',
    params: {}, example: { name: 'done-sentinel' }, effect: 'breaks', phase: 0,
    apply(w) {
      const at = w.t.body.length;
      w.t = applyEdits(w.t, [{ at, remove: 0, insert: utf8(encodeAdkFrame('[DONE]')) }]);
      w.t.cuts.push({ at, delayMs: 0 });
      w.frames.push(frameOf('[DONE]'));
    },
  },
  'cut-after-frame': {
    description: 'Destroys the connection (TCP reset) right after a frame: no clean end of the body.',
    params: { frame: frameParam('the last frame sent') }, example: { name: 'cut-after-frame', frame: 2 }, effect: 'breaks', phase: 1,
    apply(w, p) { w.t = truncate(w.t, frameRange(w, p.frame as number, 'cut-after-frame')[1]); w.frames = w.frames.slice(0, (p.frame as number) + 1); w.end = 'reset'; },
  },
  'cut-mid-frame': {
    description: 'Destroys the connection after the first `bytes` bytes of a frame, leaving it unterminated.',
    params: { frame: frameParam('the frame cut short'), bytes: { type: 'integer', min: 1, required: true, description: 'bytes of that frame still sent (less than its length)' } },
    example: { name: 'cut-mid-frame', frame: 1, bytes: 40 }, effect: 'breaks', phase: 1,
    apply(w, p) {
      const [start, end] = frameRange(w, p.frame as number, 'cut-mid-frame');
      if ((p.bytes as number) >= end - start) throw new TypeError(`fault cut-mid-frame: bytes must be less than frame ${p.frame as number}'s length ${end - start}`);
      w.t = truncate(w.t, start + (p.bytes as number));
      w.frames = w.frames.slice(0, p.frame as number);
      w.end = 'reset';
    },
  },
  'close-after-frame': {
    description: 'Ends the body cleanly (EOF) right after a frame, dropping the rest of the run.',
    params: { frame: frameParam('the last frame sent') }, example: { name: 'close-after-frame', frame: 0 }, effect: 'breaks', phase: 1,
    apply(w, p) { w.t = truncate(w.t, frameRange(w, p.frame as number, 'close-after-frame')[1]); w.frames = w.frames.slice(0, (p.frame as number) + 1); w.end = 'eof'; },
  },
  'split-every-byte': {
    description: 'Writes the body one byte at a time (every frame, line and UTF-8 sequence split).',
    params: {}, example: { name: 'split-every-byte' }, effect: 'same-frames', phase: 2,
    apply(w) {
      const starts = new Set(w.t.cuts.map((c) => c.at));
      const cuts = [...w.t.cuts];
      for (let at = 1; at < w.t.body.length; at++) if (!starts.has(at)) cuts.push({ at, delayMs: 0 });
      w.t = { body: w.t.body, cuts: cuts.sort((a, b) => a.at - b.at) };
    },
  },
  'chunk-size': {
    description: 'Re-cuts each run of bytes written without a wait into writes of `bytes` bytes, across frame boundaries.',
    params: { bytes: { type: 'integer', min: 1, required: true, description: 'bytes per write' } },
    example: { name: 'chunk-size', bytes: 7 }, effect: 'same-frames', phase: 2,
    apply(w, p) {
      const size = p.bytes as number;
      const kept = w.t.cuts.filter((c, i) => i === 0 || c.delayMs > 0);
      const cuts = [...kept];
      kept.forEach((c, i) => {
        const end = i + 1 < kept.length ? kept[i + 1]!.at : w.t.body.length;
        for (let at = c.at + size; at < end; at += size) cuts.push({ at, delayMs: 0 });
      });
      w.t = { body: w.t.body, cuts: cuts.sort((a, b) => a.at - b.at) };
    },
  },
  'split-at': {
    description: 'Adds write boundaries at the given absolute byte offsets of the body.',
    params: { offsets: { type: 'integer[]', min: 1, required: true, description: 'byte offsets, each inside the body' } },
    example: { name: 'split-at', offsets: [5, 6, 120] }, effect: 'same-frames', phase: 2,
    apply(w, p) {
      for (const at of p.offsets as number[]) {
        if (at >= w.t.body.length) throw new TypeError(`fault split-at: offset ${at} is not inside the body (${w.t.body.length} bytes)`);
        cutAt(w.t, at);
      }
    },
  },
  dribble: {
    description: 'Writes `bytesPerChunk` bytes at a time with `intervalMs` before each write (a slow link).',
    params: { bytesPerChunk: { type: 'integer', min: 1, required: true, description: 'bytes per write' }, intervalMs: { type: 'number', min: 0, required: true, description: 'wait before each write' } },
    example: { name: 'dribble', bytesPerChunk: 16, intervalMs: 5 }, effect: 'timing', phase: 2,
    apply(w, p) {
      const size = p.bytesPerChunk as number, interval = p.intervalMs as number;
      const cuts = w.t.cuts.map((c) => ({ at: c.at, delayMs: c.delayMs + interval }));
      w.t.cuts.forEach((c, i) => {
        const end = i + 1 < w.t.cuts.length ? w.t.cuts[i + 1]!.at : w.t.body.length;
        for (let at = c.at + size; at < end; at += size) cuts.push({ at, delayMs: interval });
      });
      w.t = { body: w.t.body, cuts: cuts.sort((a, b) => a.at - b.at) };
    },
  },
  silence: {
    description: 'Waits `ms` after a frame before writing anything more (a long tool call, a stalled proxy).',
    params: { afterFrame: frameParam('the frame the wait follows'), ms: { type: 'number', min: 0, required: true, description: 'milliseconds of silence' } },
    example: { name: 'silence', afterFrame: 0, ms: 90000 }, effect: 'timing', phase: 3,
    apply(w, p) { cutAt(w.t, frameRange(w, p.afterFrame as number, 'silence')[1]).delayMs += p.ms as number; },
  },
  'delay-headers': {
    description: 'Waits `ms` before sending the status line and headers.',
    params: { ms: { type: 'number', min: 0, required: true, description: 'milliseconds before the headers' } },
    example: { name: 'delay-headers', ms: 2000 }, effect: 'timing', phase: 3,
    apply(w, p) { w.headersDelayMs += p.ms as number; },
  },
  'hold-open': {
    description: 'Keeps the connection open after the last write instead of ending the body.',
    params: {}, example: { name: 'hold-open' }, effect: 'breaks', phase: 4,
    apply(w) { w.end = 'hold-open'; },
  },
  status: {
    description: 'Answers with another HTTP status, same headers and body.',
    params: { code: { type: 'integer', min: 100, max: 599, required: true, description: 'the HTTP status code' } },
    example: { name: 'status', code: 502 }, effect: 'breaks', phase: 4,
    apply(w, p) { w.status = p.code as number; },
  },
};

export const faultCatalog: Readonly<Record<string, FaultCatalogEntry>> = Object.freeze(Object.fromEntries(
  Object.entries(definitions).map(([name, d]) => [name, Object.freeze({ description: d.description, params: d.params, example: d.example, effect: d.effect })]),
));

export const faultNames: readonly string[] = Object.freeze(Object.keys(definitions).sort());

function checkParam(fault: string, name: string, spec: FaultParam, value: unknown): void {
  const bad = (why: string): never => { throw new TypeError(`fault ${fault}: parameter ${name} ${why}, got ${JSON.stringify(value)}`); };
  const numberOk = (v: unknown, integer: boolean): boolean => typeof v === 'number' && Number.isFinite(v) && (!integer || Number.isInteger(v))
    && (spec.min === undefined || v >= spec.min) && (spec.max === undefined || v <= spec.max);
  const range = `${spec.min !== undefined ? ` >= ${spec.min}` : ''}${spec.max !== undefined ? ` <= ${spec.max}` : ''}`;
  switch (spec.type) {
    case 'integer': if (!numberOk(value, true)) bad(`must be an integer${range}`); break;
    case 'number': if (!numberOk(value, false)) bad(`must be a number${range}`); break;
    case 'string':
      if (typeof value !== 'string') bad('must be a string');
      if (spec.values && !spec.values.includes(value as string)) bad(`must be one of ${spec.values.join(', ')}`);
      break;
    case 'integer[]':
      if (!Array.isArray(value) || value.length === 0 || !value.every((v) => numberOk(v, true))) bad(`must be a non-empty array of integers${range}`);
      break;
  }
}

/** Check one fault and fill its defaults; a TypeError says which fault and parameter is wrong. */
export function resolveFault(fault: unknown): { definition: Definition; params: Record<string, unknown> } {
  if (fault === null || typeof fault !== 'object' || Array.isArray(fault)) throw new TypeError(`a fault must be an object {name, ...params}, got ${JSON.stringify(fault)}`);
  const { name, ...given } = fault as Record<string, unknown>;
  const definition = typeof name === 'string' ? definitions[name] : undefined;
  if (!definition) throw new TypeError(`unknown fault ${JSON.stringify(name)}; known faults: ${faultNames.join(', ')}`);
  const params: Record<string, unknown> = {};
  for (const key of Object.keys(given)) {
    if (!(key in definition.params)) {
      const known = Object.keys(definition.params);
      throw new TypeError(`fault ${name as string}: unknown parameter ${key}; it takes ${known.length > 0 ? known.join(', ') : 'no parameters'}`);
    }
  }
  for (const [key, spec] of Object.entries(definition.params)) {
    const value = given[key] ?? spec.default;
    if (value === undefined) {
      if (spec.required) throw new TypeError(`fault ${name as string}: parameter ${key} is required (${spec.description})`);
      continue;
    }
    checkParam(name as string, key, spec, value);
    params[key] = value;
  }
  return { definition, params };
}

export function applyFaults(plan: ReplayPlan, faults: readonly unknown[] = []): ReplayPlan {
  if (!Array.isArray(faults)) throw new TypeError(`applyFaults: faults must be an array of {name, ...params}, got ${JSON.stringify(faults)}`);
  const resolved = faults.map((f, i) => {
    try { return resolveFault(f); } catch (e) { throw new TypeError(`faults[${i}]: ${(e as Error).message}`); }
  });
  if (resolved.length === 0) return plan;
  const w: Working = { t: toTimeline(plan.chunks), frames: plan.frames.map((f) => ({ ...f })), status: plan.status, end: plan.end, headersDelayMs: plan.headersDelayMs ?? 0 };
  // Stable sort by phase: listed order holds within a phase, except that a BOM goes in last among
  // the content rewrites: it is only a BOM at the very first byte (a comment written before it
  // would turn it into part of a field name).
  const bomLast = (r: { definition: Definition }) => (r.definition === definitions.bom || r.definition === definitions['double-bom'] ? 1 : 0);
  const ordered = resolved.map((r, i) => ({ ...r, i })).sort((a, b) => a.definition.phase - b.definition.phase || bomLast(a) - bomLast(b) || a.i - b.i);
  for (const { definition, params } of ordered) {
    definition.apply(w, params);
    if (definition.phase <= 1) resync(w);
  }
  const out: ReplayPlan = { status: w.status, headers: plan.headers.map(([n, v]): [string, string] => [n, v]), chunks: toChunks(w.t), end: w.end, frames: w.frames };
  if (w.headersDelayMs > 0) out.headersDelayMs = w.headersDelayMs;
  return out;
}
