import { describe, expect, it } from 'vitest';
import { HTTP_DATE } from '../core/types.ts';
import { flattenHeaders, httpDateNow, isExpressShaped, planWireHeaders, resolveHeaders } from './wire-headers.ts';

describe('wire headers', () => {
  it('httpDateNow gives the HTTP date of any moment, made once per second', () => {
    for (const ms of [0, 999, 1000, Date.UTC(2026, 10, 27, 23, 59, 59, 999), Date.UTC(2026, 10, 28)]) {
      expect(httpDateNow(ms)).toBe(new Date(ms).toUTCString());
    }
  });

  it('planWireHeaders is flattenHeaders(resolveHeaders(...)) of a plan, the date filled in every place, and says whether it is Express-shaped', () => {
    const headers: Array<[string, string]> = [['X-Powered-By', 'Express'], ['Date', HTTP_DATE], ['Content-Type', 'text/event-stream'], ['x-other-date', HTTP_DATE]];
    const first = planWireHeaders(headers);
    const resolved = flattenHeaders(resolveHeaders(headers));
    // The two dates are made a moment apart: compare them to each other, and the rest exactly.
    expect(first.flat[3]).toBe(first.flat[7]);
    expect(Date.parse(first.flat[3] ?? '')).toBeGreaterThan(0);
    expect(first.flat.filter((_, i) => i !== 3 && i !== 7)).toEqual(resolved.filter((_, i) => i !== 3 && i !== 7));
    expect(first.expressShaped).toBe(true);
    // Each call gets its own array: a caller changing it changes nothing for the next.
    first.flat[1] = 'changed';
    expect(planWireHeaders(headers).flat[1]).toBe('Express');
    expect(planWireHeaders([['server', 'uvicorn']])).toEqual({ flat: ['server', 'uvicorn'], expressShaped: false });
    expect(isExpressShaped([['x-powered-by', 'Express']])).toBe(true);
    expect(isExpressShaped([['x-powered-by', 'express']])).toBe(false);
  });
});
