/**
 * BLK-FLOW-002: every output event is valid against the block-stream-event schema and the turn
 * ends with stream_end (seed 003 §5: the frontend "can rely on the `index` from SSE events",
 * which it can only if every line is a well-formed event and the turn visibly ends). The stdio
 * contract (docs/normalizer.md) adds: one JSON object per LF-ended line, exit status 0.
 */
import { validate } from '../../../schemas/registry.ts';
import type { CheckOutcome, Finding } from '../../model.ts';
import { at, type ActualEvent } from './actual.ts';
import { outcomeOf } from './outcome.ts';
import type { NormalizerObservation, Termination, TurnCase } from './types.ts';

const requirement = 'BLK-FLOW-002';

/** Whether the output already holds the turn's end (a process that then hangs hung after its output). */
export function wroteStreamEnd(obs: Pick<NormalizerObservation, 'lines'>): boolean {
  return obs.lines.some((l) => typeof l.event === 'object' && l.event !== null && (l.event as { event_type?: unknown }).event_type === 'stream_end');
}

/** Why the output may be incomplete, or undefined when the implementation ended normally. */
export function describeTermination(t: Termination, obs?: Pick<NormalizerObservation, 'lines'>): string | undefined {
  switch (t.kind) {
    case 'ended': return undefined;
    case 'exit': return t.signal ? `the normaliser was killed by ${t.signal}` : `the normaliser exited with status ${t.code}`;
    case 'threw': return `the normaliser threw: ${t.message}`;
    // With stream_end written the output is whole: what is left to fix is the process that does not exit.
    case 'timed-out': return obs && wroteStreamEnd(obs) ? `the normaliser hung after its output: it wrote stream_end but did not exit within ${t.afterMs} ms` : `the normaliser did not finish within ${t.afterMs} ms`;
    case 'spawn-failed': return `the normaliser could not be started: ${t.message}`;
    case 'overflowed': return 'the normaliser wrote more output than the harness keeps and was stopped';
  }
}

const terminationCode: Record<Termination['kind'], string> = {
  ended: '', exit: 'exit-status', threw: 'threw', 'timed-out': 'timed-out', 'spawn-failed': 'spawn-failed', overflowed: 'output-overflow',
};

export function checkStreamShape(c: TurnCase, obs: NormalizerObservation, actual: readonly ActualEvent[]): CheckOutcome {
  const findings: Finding[] = [];
  const add = (code: string, path: string, message: string, exp?: unknown, act?: unknown) =>
    findings.push({ requirement, code, path, message, ...(exp !== undefined ? { expected: exp } : {}), ...(act !== undefined ? { actual: act } : {}) });

  const ended = describeTermination(obs.termination, obs);
  if (ended) add(terminationCode[obs.termination.kind], `${c.pathPrefix}process`, `${c.label}: ${ended}${obs.stderr ? `; stderr: ${obs.stderr.slice(0, 300)}` : ''}`, 'exit status 0 after stream_end', obs.termination);

  obs.lines.forEach((line, pos) => {
    if (line.parseError !== undefined) {
      add('invalid-json-line', at(c, pos), `${c.label}: output line ${pos + 1} is not JSON: ${line.parseError}`, 'one JSON object per line', line.text.slice(0, 200));
      return;
    }
    const result = validate('block-stream-event', line.event);
    if (!result.valid) {
      const issue = result.errors[0]!;
      add('schema-invalid', at(c, pos, issue.path), `${c.label}: output line ${pos + 1} is not a valid block-stream-event: ${issue.path || '/'} ${issue.message}`, 'valid against schemas/block-stream-event.schema.json', line.event);
    }
  });
  if (obs.partialLine !== undefined) add('unterminated-line', `${c.pathPrefix}event[${obs.lines.length}]`, `${c.label}: the output ends with a line without LF`, 'every line ended by LF', obs.partialLine.slice(0, 200));

  const ends = actual.filter((e) => e.type === 'stream_end');
  const last = actual[actual.length - 1];
  if (ends.length === 0) {
    if (!ended) add('stream-end-missing', `${c.pathPrefix}output`, `${c.label}: the output has no stream_end; the turn must end with one`, { event_type: 'stream_end', data: {} }, last ? { event_type: last.type } : 'no output');
  } else {
    if (ends.length > 1) add('stream-end-repeated', at(c, ends[1]!.pos), `${c.label}: the output has ${ends.length} stream_end events; one turn ends once`, 1, ends.length);
    if (last && last.type !== 'stream_end') add('stream-end-not-last', at(c, last.pos), `${c.label}: ${last.type} follows stream_end; stream_end is the last event of the turn`, 'stream_end last', last.type);
  }
  return outcomeOf(requirement, c.scenario, findings);
}
