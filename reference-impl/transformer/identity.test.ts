import { describe, expect, it } from 'vitest';
import { createIdentity } from './identity.ts';

let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

describe('identity of a run (seed 002 §4.2)', () => {
  it('session correlation uses the session id, whatever the invocation ids', () => {
    const id = createIdentity({ correlation: 'session', sessionId: 's-1', uuid });
    expect([id.correlationId('e-1'), id.correlationId('e-2')]).toEqual(['s-1', 's-1']);
  });

  it('invocation correlation is fixed by the first invocation id', () => {
    const id = createIdentity({ correlation: 'invocation', uuid });
    expect([id.correlationId('e-1'), id.correlationId('e-random-merged')]).toEqual(['e-1', 'e-1']);
  });

  it('with nothing to name the run, a fresh run id is used, and kept', () => {
    const id = createIdentity({ correlation: 'invocation', uuid });
    const first = id.correlationId(undefined);
    expect(first).toMatch(/^run-/);
    expect(id.correlationId('e-1')).toBe(first);
  });

  it('a response finds the event that announced its call by call id, and id-less ones by name in order', () => {
    const id = createIdentity({ correlation: 'session', sessionId: 's', uuid });
    id.announce({ id: 'adk-1', name: 'burn_analyst' }, 'ev-a');
    id.announce({ id: undefined, name: 'search' }, 'ev-b');
    id.announce({ id: undefined, name: 'search' }, 'ev-c');
    expect(id.parentOf({ id: 'adk-1', name: 'burn_analyst' })).toBe('ev-a');
    expect([id.parentOf({ id: undefined, name: 'search' }), id.parentOf({ id: undefined, name: 'search' }), id.parentOf({ id: undefined, name: 'search' })]).toEqual(['ev-b', 'ev-c', null]);
    expect(id.parentOf({ id: 'adk-unknown', name: 'other' })).toBeNull();
  });

  it('a repeated uuid is a programmer error', () => {
    const id = createIdentity({ correlation: 'session', sessionId: 's', uuid: () => 'same' });
    id.eventId();
    expect(() => id.eventId()).toThrow(/returned same twice/);
  });
});
