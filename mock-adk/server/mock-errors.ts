/**
 * The mock's own error answers (as opposed to the imitated server's): JSON `{code, error, fix}`
 * with the status of the code's entry in mock-adk/error-codes.ts.
 */
import { mockErrorCodes, type MockErrorCode } from '../error-codes.ts';
import type { Answer, MockResult } from './route-types.ts';

export function mockErrorAnswer(code: MockErrorCode, error: string, extra: Record<string, unknown> = {}): Answer {
  const entry = mockErrorCodes[code];
  const body = JSON.stringify({ code, error, fix: entry.fix, ...extra });
  return { status: entry.status, headers: [['content-type', 'application/json; charset=utf-8'], ['content-length', String(Buffer.byteLength(body))]], body };
}

export function mockError(code: MockErrorCode, error: string, extra: Record<string, unknown> = {}): MockResult {
  return { kind: 'answer', answer: mockErrorAnswer(code, error, extra) };
}

/** A plain JSON answer of a control route. */
export function jsonAnswer(status: number, value: unknown): MockResult {
  const body = JSON.stringify(value);
  return { kind: 'answer', answer: { status, headers: [['content-type', 'application/json; charset=utf-8'], ['content-length', String(Buffer.byteLength(body))]], body } };
}
