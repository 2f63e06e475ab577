/**
 * What a --grep word selects, decided before anything starts (docs/harness.md "Selecting"):
 *
 * - a word that names something exactly (requirement id or tag, scenario id, family or tag, probe
 *   or `probe:<id>`; any case) selects it, as it always did;
 * - otherwise `/pattern/flags` is a regular expression and any other word a substring (any case),
 *   matched against scenario ids and probe labels (`probe:<id>`), like vitest's `-t` against test
 *   names; a word that matches none of those but requirement ids selects those requirements;
 * - a word that selects nothing is a usage error (exit 2), never a vacuous verdict.
 *
 * Substrings and patterns are expanded here into the exact names they match, so the engine only
 * ever sees exact names. Each word's line says what it matched and how many scenarios that is.
 */
import { UsageError, nearest } from '../core/errors.ts';

export type GrepInput = {
  grep: readonly string[];
  scenarios: readonly { id: string; family: string; tags: readonly string[] }[];
  requirements: readonly { id: string; tags: readonly string[] }[];
  probes: readonly string[];
};

export type ResolvedGrep = { words: string[]; notes: string[] };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const listed = (names: readonly string[], max = 6) => names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;

function matcher(word: string): { test: (name: string) => boolean; shown: string } {
  const m = /^\/(.+)\/([a-z]*)$/.exec(word);
  if (!m) return { test: (name) => name.toLowerCase().includes(word.toLowerCase()), shown: `'${word}' (substring)` };
  try {
    const re = new RegExp(m[1] as string, (m[2] as string).replace(/[gy]/g, ''));
    return { test: (name) => re.test(name), shown: `${word} (pattern)` };
  } catch (error) {
    throw new UsageError(`--grep ${word} is not a valid regular expression: ${(error as Error).message}. Write /pattern/ or /pattern/i, or a plain word for a substring.`);
  }
}

/** Requirement ids and tags, lower-cased: the words that select requirements, not runs. */
const requirementWordsOf = (input: GrepInput): Set<string> => new Set(input.requirements.flatMap((r) => [r.id, ...r.tags]).map((w) => w.toLowerCase()));

/** The scenario ids (by id, family or tag) and probe labels (by id or `probe:<id>`) a word names exactly, any case. */
function namedExactly(input: GrepInput, word: string): { scenarios: string[]; probes: string[] } {
  const lower = word.toLowerCase();
  return {
    scenarios: input.scenarios.filter((s) => [s.id, s.family, ...s.tags].some((w) => w.toLowerCase() === lower)).map((s) => s.id),
    probes: input.probes.filter((p) => p.toLowerCase() === lower || `probe:${p}`.toLowerCase() === lower).map((p) => `probe:${p}`),
  };
}

export function resolveGrep(input: GrepInput): ResolvedGrep {
  // Matched without case, suggested as spelled: 'BLK-IDX-999' is near 'BLK-IDX-001', not 'blk-idx-001'.
  const words = new Map<string, string>();
  const add = (word: string) => { if (!words.has(word.toLowerCase())) words.set(word.toLowerCase(), word); };
  for (const r of input.requirements) { add(r.id); for (const t of r.tags) add(t); }
  for (const s of input.scenarios) { add(s.id); add(s.family); for (const t of s.tags) add(t); }
  // A probe is selected by its id or by the `probe:<id>` label the console prints (harness/engine.ts namedProbes).
  for (const p of input.probes) { add(p); add(`probe:${p}`); }
  const requirementWords = requirementWordsOf(input);
  const out: string[] = [];
  const notes: string[] = [];
  for (const g of input.grep) {
    if (words.has(g.toLowerCase())) {
      out.push(g);
      if (requirementWords.has(g.toLowerCase())) { notes.push(`--grep ${g}: requirement ${input.requirements.some((r) => r.id.toLowerCase() === g.toLowerCase()) ? 'id' : 'tag'} (every scenario that exercises it runs)`); continue; }
      const hit = namedExactly(input, g).scenarios;
      notes.push(`--grep ${g}: ${hit.length > 0 ? `${plural(hit.length, 'scenario')} matched` : 'a probe'}${hit.length > 0 && hit.length <= 6 ? ` (${hit.join(', ')})` : ''}`);
      continue;
    }
    const { test, shown } = matcher(g);
    const scenarioIds = input.scenarios.map((s) => s.id).filter(test);
    const probeLabels = input.probes.map((p) => `probe:${p}`).filter(test);
    if (scenarioIds.length + probeLabels.length > 0) {
      out.push(...scenarioIds, ...probeLabels);
      notes.push(`--grep ${shown}: ${plural(scenarioIds.length, 'scenario')}${probeLabels.length ? ` and ${plural(probeLabels.length, 'probe')}` : ''} matched (${listed([...scenarioIds, ...probeLabels])})`);
      continue;
    }
    const requirementIds = input.requirements.map((r) => r.id).filter(test);
    if (requirementIds.length > 0) {
      out.push(...requirementIds);
      notes.push(`--grep ${shown}: no scenario id; ${plural(requirementIds.length, 'requirement')} matched (${listed(requirementIds)})`);
      continue;
    }
    const near = nearest(g.toLowerCase(), [...words.keys()]);
    throw new UsageError(`--grep ${g} matches no requirement id or tag, no scenario id, family or tag and no probe, exactly or as ${g.startsWith('/') ? 'a pattern' : 'a substring'}${near ? ` (did you mean '${words.get(near)}'?)` : ''}; see docs/requirements.md and 'adk-conformance scenarios'.`);
  }
  return { words: [...new Set(out)], notes };
}

/**
 * `--skip`: everything the selection would run but what the words name, scenarios and probes only
 * (a requirement is gated by its scenarios, so leaving one out is a --grep matter). Resolved like
 * --grep (an exact name, else a substring or /pattern/ of scenario ids and probe labels) and turned
 * into the exact scenario-level selection of what is left, so the engine sees a --grep as before
 * and gates only what the remaining runs exercise. A word that leaves out nothing, or a selection
 * that leaves nothing, is a usage error.
 */
export function applySkip(input: GrepInput & { skip: readonly string[] }, selected: ResolvedGrep): ResolvedGrep {
  if (input.skip.length === 0) return selected;
  const requirementWords = requirementWordsOf(input);
  if (selected.words.some((w) => requirementWords.has(w.toLowerCase()))) {
    throw new UsageError(`--skip leaves out scenarios and probes, and this --grep selects requirements (${selected.words.filter((w) => requirementWords.has(w.toLowerCase())).join(', ')}): name scenarios or probes with --grep, or drop --skip.`);
  }
  const labels = input.probes.map((p) => `probe:${p}`);
  const named = (word: string): string[] => { const n = namedExactly(input, word); return [...n.scenarios, ...n.probes]; };
  const base = selected.words.length === 0 ? [...input.scenarios.map((s) => s.id), ...labels] : [...new Set(selected.words.flatMap(named))];
  const left = new Set<string>();
  const notes = [...selected.notes];
  for (const word of input.skip) {
    if (requirementWords.has(word.toLowerCase()) && named(word).length === 0) {
      throw new UsageError(`--skip ${word} is a requirement ${input.requirements.some((r) => r.id.toLowerCase() === word.toLowerCase()) ? 'id' : 'tag'}: --skip leaves out scenarios and probes (a scenario id, family or tag, or probe:<id>); see 'adk-conformance scenarios'.`);
    }
    const exact = named(word);
    const { test, shown } = exact.length > 0 ? { test: (n: string) => exact.includes(n), shown: word } : matcher(word);
    const hit = base.filter(test);
    if (hit.length === 0) {
      const words = [...input.scenarios.flatMap((s) => [s.id, s.family, ...s.tags]), ...labels];
      const near = nearest(word.toLowerCase(), words.map((w) => w.toLowerCase()));
      throw new UsageError(`--skip ${word} leaves out nothing: it names no scenario (id, family or tag) and no probe of this run${selected.words.length > 0 ? "'s --grep selection" : ''}, exactly or as ${word.startsWith('/') ? 'a pattern' : 'a substring'}${near ? ` (did you mean '${words.find((w) => w.toLowerCase() === near)}'?)` : ''}.`);
    }
    for (const h of hit) left.add(h);
    const scenarioCount = hit.filter((h) => !h.startsWith('probe:')).length;
    const probeCount = hit.length - scenarioCount;
    notes.push(`--skip ${shown}: ${plural(scenarioCount, 'scenario')}${probeCount ? ` and ${plural(probeCount, 'probe')}` : ''} left out (${listed(hit)})`);
  }
  const words = base.filter((w) => !left.has(w));
  if (words.length === 0) throw new UsageError(`--skip ${input.skip.join(',')} leaves nothing to run: every selected scenario and probe is skipped.`);
  return { words, notes };
}
