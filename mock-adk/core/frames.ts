/**
 * RenderedFrame bookkeeping shared by the renderers and the fault engine: what a WHATWG reader
 * dispatches from some bytes, and the byte range each dispatched frame occupies in a body.
 */
import { readSse } from '../../core/sse.ts';
import type { RenderedFrame } from './types.ts';

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A frame from its data text: JSON when it parses; `error` for `{"error": …}` payloads, `event` for ADK events. */
export function frameOf(data: string, event?: string): RenderedFrame {
  let json: unknown;
  let parsed = false;
  try { json = JSON.parse(data); parsed = true; } catch { /* not JSON: a raw frame */ }
  let kind: RenderedFrame['kind'] = 'raw';
  if (parsed && json !== null && typeof json === 'object' && !Array.isArray(json)) {
    if ('invocationId' in json) kind = 'event';
    else if ('error' in json) kind = 'error';
  }
  const frame: RenderedFrame = { data, kind };
  if (parsed) frame.json = json;
  if (event !== undefined) frame.event = event;
  return frame;
}

/** The frames a spec-following reader dispatches from these bytes (unterminated tail dropped). */
export function framesOfBytes(bytes: Uint8Array | string): RenderedFrame[] {
  return readSse(bytes).frames.map((f) => frameOf(f.data, f.event));
}

/**
 * Byte offsets just past each dispatched frame's terminating blank line, following the WHATWG
 * rules: lines end at CRLF, LF or CR; a field named `data` marks the event as having data; an
 * empty line dispatches it when it has. A UTF-8 BOM at the very start is skipped.
 */
export function frameEnds(body: Uint8Array): number[] {
  const ends: number[] = [];
  let i = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  let lineStart = i;
  let hasData = false;
  while (i < body.length) {
    const b = body[i]!;
    if (b !== 0x0a && b !== 0x0d) { i++; continue; }
    const lineEnd = i;
    i += b === 0x0d && body[i + 1] === 0x0a ? 2 : 1;
    if (lineEnd === lineStart) {
      if (hasData) ends.push(i);
      hasData = false;
    } else if (isDataLine(body, lineStart, lineEnd)) {
      hasData = true;
    }
    lineStart = i;
  }
  return ends;
}

function isDataLine(body: Uint8Array, start: number, end: number): boolean {
  // "data" then end of line or a colon: the field name is everything before the first colon.
  if (end - start < 4) return false;
  if (body[start] !== 0x64 || body[start + 1] !== 0x61 || body[start + 2] !== 0x74 || body[start + 3] !== 0x61) return false;
  return end - start === 4 || body[start + 4] === 0x3a;
}
