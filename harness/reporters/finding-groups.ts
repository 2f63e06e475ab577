/**
 * Identical findings, shown once with a count (issue 31 §4: a transformer without `summary` gave
 * 366 identical cards). Two findings are the same when they have the same requirement, code and
 * message shape: the message with its numbers and quoted values blanked, so "event[3] has no
 * summary" and "event[7] has no summary" are one group. The first is shown whole; the group lists
 * where every one of them was (scenario and path).
 */
import type { Finding } from '../model.ts';

export type FindingGroup = { first: Finding; findings: Finding[]; count: number };

/** The message with what varies between occurrences (numbers, quoted values) blanked. */
export function messageShape(message: string): string {
  return message
    .replace(/"(?:[^"\\]|\\.)*"|'[^'\s][^']*'|`[^`]*`/g, '…')
    .replace(/\d+(?:\.\d+)?/g, '#');
}

export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const f of findings) {
    const key = `${f.requirement}\u0000${f.code}\u0000${messageShape(f.message)}`;
    const group = groups.get(key);
    if (group) { group.findings.push(f); group.count += 1; continue; }
    groups.set(key, { first: f, findings: [f], count: 1 });
  }
  return [...groups.values()];
}

/** Where the findings of a group were: `cedar_creek_briefing event[3]/summary`, in order. */
export function groupLocations(group: FindingGroup): string[] {
  return group.findings.map((f) => `${f.scenario === undefined ? '' : `${f.scenario} `}${f.path}`);
}
