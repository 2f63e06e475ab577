/**
 * How the run ends (seed 001 "Completion Detection", adk-wire-format §5 "Completion",
 * adk-python-facts §1.3, docs/transform-contract.md "Output" and "Exit status"):
 * - ABE-TERM-001: exactly one terminal event (state COMPLETE or ERROR), the last one; and the
 *   implementation itself ends cleanly (exit status 0 / no exception, no hang after end of input).
 * - ABE-TERM-002: no terminal event arrives before the frame at `expect.completionPoint` was
 *   written, and no COMPLETE at all when the point is null (a cut stream never completes).
 * - ABE-TERM-003: a held-open connection (the final answer, then silence without EOF) gets its
 *   COMPLETE within the idle window plus the tolerance after the last frame.
 * - ABE-TERM-004: an error frame makes the terminal event an ERROR; `[DONE]` ends the run without
 *   waiting for EOF; an invalid JSON line neither crashes the implementation nor ends its output.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { cameAfterClose, type EmittedEvent, type RunExit, type TransformerObservation } from './observation.ts';
import { at, brief, isTerminal, stateOf } from './briefing.ts';
import { finding, judge, untested } from './outcome.ts';

function exitProblem(exit: RunExit): { code: string; message: string } | undefined {
  if (exit.spawnError) return { code: 'transformer-not-started', message: `the command could not be started: ${exit.spawnError}` };
  if (exit.threw) return { code: 'transformer-crashed', message: `the module threw: ${exit.threw}` };
  if (exit.overflowed) return { code: 'output-overflow', message: 'the output exceeded the harness\'s limit and the process was stopped' };
  if (exit.timedOut) return { code: 'transformer-hung', message: `the implementation did not finish within its time bound after the end of its input${exit.killed ? '; it ignored SIGTERM and was stopped with SIGKILL' : ''}${exit.startupNote ?? ''}${exit.boundExtendedMs ? `; the bound moved ${exit.boundExtendedMs} ms for CPU time the machine withheld` : ''}` };
  const tail = exit.stderr.trim().split('\n').slice(-3).join(' | ');
  if (exit.signal) return { code: 'transformer-crashed', message: `the process was ended by ${exit.signal}${tail ? `; stderr: ${tail}` : ''}` };
  if (exit.exitCode !== null && exit.exitCode !== 0) return { code: 'transformer-crashed', message: `the process exited with status ${exit.exitCode}${tail ? `; stderr: ${tail}` : ''}` };
  return undefined;
}

export function checkTerminal(obs: TransformerObservation): CheckOutcome[] {
  const id = 'ABE-TERM-001';
  const events = obs.run.events;
  const findings: Finding[] = [];
  const problem = exitProblem(obs.run.exit);
  if (problem) findings.push(finding(id, problem.code, obs.run.exit.mode === 'command' ? 'process' : 'module', problem.message, 'a clean end after the terminal event', obs.run.exit.exitCode ?? obs.run.exit.signal ?? obs.run.exit.threw ?? null));
  const terminals = events.filter(isTerminal);
  if (terminals.length === 0) findings.push(finding(id, 'terminal-missing', 'output', 'no event has state COMPLETE or ERROR: the run never ended', 'exactly one terminal event, last', events.slice(-3).map(brief)));
  if (terminals.length > 1) findings.push(finding(id, 'terminal-repeated', at(terminals[1] as EmittedEvent), `${terminals.length} terminal events (${terminals.map((e) => `${stateOf(e)} at event ${e.index}`).join(', ')})`, 1, terminals.length));
  const first = terminals[0];
  if (first && first.index < events.length - 1) {
    const after = events[first.index + 1] as EmittedEvent;
    findings.push(finding(id, 'event-after-terminal', at(after), `event ${after.index} follows the terminal ${stateOf(first)} event`, 'nothing after the terminal event', brief(after)));
  }
  return [judge(id, obs.scenario.id, findings)];
}

export function checkNotPremature(obs: TransformerObservation): CheckOutcome[] {
  const id = 'ABE-TERM-002';
  const point = obs.scenario.expect.completionPoint;
  if (point === undefined) return [];
  // When completion was declared is judged on a declaration: with no terminal event there is none (ABE-TERM-001's finding).
  if (!obs.run.events.some(isTerminal)) return [untested(id, obs.scenario.id, 'no terminal event (COMPLETE or ERROR) was emitted, so when the run was declared over could not be judged')];
  if (point !== null && obs.timing.completionPointAt === undefined) return [];
  const findings: Finding[] = [];
  if (point === null) {
    for (const e of obs.run.events.filter((x) => stateOf(x) === 'COMPLETE')) {
      findings.push(finding(id, 'complete-without-final-answer', at(e), 'the stream never gave a final answer (completion point null) but the run was declared COMPLETE', 'an ERROR terminal event', brief(e)));
    }
  } else if (obs.timing.completionPointAt !== undefined) {
    const pointAt = obs.timing.completionPointAt;
    for (const e of obs.run.events.filter((x) => isTerminal(x) && x.at < pointAt)) {
      findings.push(finding(id, 'completion-before-point', at(e), `the run was declared ${stateOf(e)} ${Math.round(pointAt - e.at)} ms before frame[${point}] (its completion point) was written`, `no terminal event before frame[${point}]`, brief(e)));
    }
  }
  return [judge(id, obs.scenario.id, findings)];
}

export function checkHeldOpen(obs: TransformerObservation): CheckOutcome[] {
  const id = 'ABE-TERM-003';
  if (obs.ending !== 'hold-open' || obs.frames.length === 0) return [];
  // Counted from the last frame, or from the first output when the implementation started later
  // than that (a process slow to start has not read the frame yet).
  const last = Math.max(obs.frames[obs.frames.length - 1]?.at ?? 0, obs.run.events[0]?.at ?? 0);
  const { idleMs, toleranceMs } = obs.timing;
  const complete = obs.run.events.find((e) => stateOf(e) === 'COMPLETE');
  const findings: Finding[] = [];
  if (!complete) {
    findings.push(finding(id, 'held-open-not-completed', 'output', 'the connection stayed open after the final answer and the run was never declared COMPLETE', `COMPLETE within ${idleMs + toleranceMs} ms of the last frame`, obs.run.events.slice(-2).map(brief)));
  } else if (complete.at - last > idleMs + toleranceMs) {
    findings.push(finding(id, 'held-open-completed-late', at(complete), `COMPLETE came ${Math.round(complete.at - last)} ms after the last frame (or the first output, if later); the idle window is ${idleMs} ms plus ${toleranceMs} ms tolerance${cameAfterClose(obs.run, complete) ? ' (it came only after the input was closed)' : ''}`, `<= ${idleMs + toleranceMs} ms`, Math.round(complete.at - last)));
  }
  return [judge(id, obs.scenario.id, findings)];
}

export function checkEndings(obs: TransformerObservation): CheckOutcome[] {
  const id = 'ABE-TERM-004';
  const errors = obs.frames.filter((f) => f.kind === 'error');
  const done = obs.frames.filter((f) => f.kind === 'done');
  const invalid = obs.frames.filter((f) => f.kind === 'invalid' || (f.kind === 'error' && !f.json));
  if (errors.length === 0 && done.length === 0 && invalid.length === 0) return [];
  const findings: Finding[] = [];
  const terminal = obs.run.events.find(isTerminal);
  // What was judged: an error frame against the terminal event it ended, [DONE] against when the
  // run ended, an invalid line against whether the run went on (issue 28 §2: never a pass over nothing).
  const judged: string[] = [];
  const missing: string[] = [];
  if (errors.length > 0 && obs.scenario.expect.outcome === 'error') (terminal ? judged : missing).push('the error frame');
  if (errors.length > 0 && obs.scenario.expect.outcome === 'error' && terminal && stateOf(terminal) !== 'ERROR') {
    findings.push(finding(id, 'error-frame-not-error', at(terminal), `frame[${errors[0]!.index}] is an error frame but the run ended ${stateOf(terminal)}`, 'ERROR', brief(terminal)));
  }
  // A process that wrote nothing before its input was closed may have read [DONE] and EOF at
  // once (it started late): then the order cannot be told, and nothing is concluded.
  const first = obs.run.events[0];
  const awake = first !== undefined && !cameAfterClose(obs.run, first);
  if (done.length > 0) (terminal && awake ? judged : missing).push('the [DONE] sentinel');
  if (done.length > 0 && terminal && awake && cameAfterClose(obs.run, terminal)) {
    // The input's close is timed (the wait for an answer after [DONE]): confirmed alone before it is reported.
    findings.push({ ...finding(id, 'done-not-ending-run', at(terminal), `the terminal event came only after the input was closed, not at the [DONE] sentinel (frame[${done[0]!.index}]): it came ${Math.round(terminal.at - done[0]!.at)} ms after [DONE], the input closed ${Math.round(obs.run.inputClosedAt - done[0]!.at)} ms after it`, 'the terminal event right after [DONE]', `${Math.round(terminal.at - done[0]!.at)} ms after [DONE]`), timing: true as const });
  }
  if (done.length > 0 && terminal && !awake && errors.length === 0 && invalid.length === 0) {
    return [untested(id, obs.scenario.id, 'the implementation wrote nothing before its input was closed, so whether [DONE] or EOF ended the run cannot be told')];
  }
  if (invalid.length > 0) {
    judged.push('the invalid line');
    const problem = exitProblem(obs.run.exit);
    const line = invalid[0]!;
    // A crash and an output that simply stops are two defects with two codes (issue 28 §4).
    if (problem) findings.push(finding(id, 'invalid-frame-crashed-run', `frame[${line.index}]`, `after the invalid JSON line of frame[${line.index}] ${problem.message}`, 'the run goes on to its terminal event', line.data.slice(0, 200)));
    else if (!terminal) findings.push(finding(id, 'invalid-frame-ended-run', `frame[${line.index}]`, `after the invalid JSON line of frame[${line.index}] the implementation ended cleanly but never reached a terminal event: the invalid line is to be skipped (an ALERT) and the run to go on`, 'the run goes on to its terminal event', line.data.slice(0, 200)));
  }
  if (judged.length === 0 && findings.length === 0) return [untested(id, obs.scenario.id, `no terminal event${terminal ? ' before the input was closed' : ''} to judge ${missing.join(' and ')} against`)];
  return [judge(id, obs.scenario.id, findings)];
}
