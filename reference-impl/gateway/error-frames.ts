/**
 * The three error frames seed 004 defines (§ Error Handling), as the exact bytes the gateway
 * writes. All three are `data: <json>\n\n` with Python `json.dumps` text (py-json.ts), because
 * the seed's gateway is a Python service; `timestamp` is a float in seconds, like `time.time()`.
 */
import { STATUS_CODES } from 'node:http';
import { encodeAdkFrame } from '../../core/sse.ts';
import { pyFloat, pyJsonDumps } from './py-json.ts';

/** Seed 004 § Timeout Error: `{"error": "Request timeout after 300 seconds", "error_code": "TIMEOUT", "timestamp": ...}`. */
export function timeoutFrame(timeoutMs: number, nowMs: number): string {
  return encodeAdkFrame(pyJsonDumps({ error: `Request timeout after ${formatSeconds(timeoutMs)} seconds`, error_code: 'TIMEOUT', timestamp: pyFloat(nowMs / 1000) }));
}

/** Seed 004 § HTTP Status Errors: `{"error": "ADK upstream error: 500", "status_code": 500, "detail": ..., "timestamp": ...}`. */
export function upstreamStatusFrame(status: number, detail: string, nowMs: number): string {
  return encodeAdkFrame(pyJsonDumps({ error: `ADK upstream error: ${status}`, status_code: status, detail, timestamp: pyFloat(nowMs / 1000) }));
}

/** Seed 004 § General Stream Errors: `{"error": "Stream error description", "error_code": "STREAM_ERROR", "timestamp": ...}`. */
export function streamErrorFrame(description: string, nowMs: number): string {
  return encodeAdkFrame(pyJsonDumps({ error: description, error_code: 'STREAM_ERROR', timestamp: pyFloat(nowMs / 1000) }));
}

/** 300000 ms -> "300", 1500 ms -> "1.5": the message names the configured value, not a constant. */
function formatSeconds(ms: number): string {
  return String(ms / 1000);
}

/**
 * The `detail` of an upstream status frame, always a string (schemas/sse-error-frame): the ADK
 * body's own message when it has one (`{"detail": ...}` from FastAPI, `{"error": ...}` from
 * adk-js; a non-string detail such as a 422 list as its JSON text), otherwise the body text, cut
 * to `limit` characters so a huge error page cannot bloat the stream; an empty body gives the
 * reason phrase (the seed's example detail "Internal Server Error" is exactly that).
 */
export function upstreamDetail(status: number, bodyText: string, contentType: string | undefined, limit = 4096): string {
  if (bodyText.trim() === '') return STATUS_CODES[status] ?? '';
  if (contentType !== undefined && /\bjson\b/i.test(contentType)) {
    try {
      const parsed: unknown = JSON.parse(bodyText);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const record = parsed as Record<string, unknown>;
        if (typeof record.detail === 'string') return record.detail;
        if (record.detail !== undefined && record.detail !== null) return cut(JSON.stringify(record.detail), limit);
        if (typeof record.error === 'string') return record.error;
      }
    } catch {
      // Not JSON after all: fall through to the text.
    }
  }
  return cut(bodyText, limit);
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}...` : text;
}
