/**
 * Seed 001 "Option A": the specialists state their proof as Markdown text. This module reads it
 * without inventing anything: no stated score means no score (seed 001's fallback of 90 is the
 * defect seed 000 §1.2 lists as gap 2). docs/briefing-mapping.md §"Proof from text" has the rules.
 */
import { fromPercent, uniqueCitations } from './proof-layer.ts';
import type { Citation } from './types.ts';

export type TextProof = {
  confidence?: number;
  /** Every score the text states, in order (the detail keeps the text itself). */
  stated: number[];
  citations: Citation[];
  /** Why there is no confidence, when there is none. */
  whyNone?: string;
};

const percent = /(\d{1,3}(?:\.\d+)?)\s*%/;
// `**Confidence:** 92%`, `**Confidence**: High (90%) - ...`, `**Overall Confidence:** 90%`.
const labelled = /\*\*\s*(overall\s+)?confidence\s*:?\s*\*\*\s*:?[ \t]*([^\n]*)/gi;
// `(Confidence: 92%)` inside a sentence, and `(Confidence: 95% for timber, 90% for trails)`.
const inline = /\(\s*confidence\s*:\s*([^)]*)\)/gi;
const sourceLine = /\*\*\s*(sources?|regulatory\s+basis)\s*:?\s*\*\*\s*:?[ \t]*([^\n]*)/gi;

function scoreOf(statement: string): number | undefined {
  const match = percent.exec(statement);
  if (match?.[1] !== undefined) {
    const value = Number(match[1]);
    return value >= 0 && value <= 100 ? fromPercent(value) : undefined;
  }
  // `**Confidence:** 0.92` states a fraction.
  const fraction = /^\s*(0(?:\.\d+)?|1(?:\.0+)?)\b/.exec(statement);
  return fraction?.[1] !== undefined ? Number(fraction[1]) : undefined;
}

/**
 * `final` is the coordinator's synthesis: its `**Overall Confidence:**` is the answer's score.
 * Otherwise (a specialist's result) the last labelled `**Confidence:**` line wins: a result closes
 * with its "Confidence & Source" section, and nepa_advisor's two lines (90%, then 95%) give 0.95.
 */
export function parseTextProof(text: string, options: { final: boolean }): TextProof {
  const overall: number[] = [];
  const lines: number[] = [];
  const qualitative: string[] = [];
  for (const m of text.matchAll(labelled)) {
    const score = scoreOf(m[2] ?? '');
    if (score === undefined) { if ((m[2] ?? '').trim()) qualitative.push((m[2] ?? '').trim()); continue; }
    (m[1] ? overall : lines).push(score);
  }
  const inlineScores: number[] = [];
  for (const m of text.matchAll(inline)) {
    const score = scoreOf(m[1] ?? '');
    if (score !== undefined) inlineScores.push(score);
  }
  const stated = [...lines, ...inlineScores, ...overall];
  const citations = citationsOf(text);
  const pick = (confidence: number | undefined, whyNone: string): TextProof =>
    confidence === undefined ? { stated, citations, whyNone } : { confidence, stated, citations };

  if (overall.length > 0) return pick(overall[overall.length - 1], '');
  if (lines.length > 0 && !options.final) return pick(lines[lines.length - 1], '');
  if (lines.length === 1 && options.final) return pick(lines[0], '');
  // One inline score is the text's score; several are per-section scores, and no overall one is stated.
  if (lines.length === 0 && inlineScores.length === 1) return pick(inlineScores[0], '');
  if (stated.length > 1) return pick(undefined, `the text states ${stated.length} section scores and no overall confidence`);
  if (qualitative.length > 0) return pick(undefined, `the text states its confidence only in words ('${qualitative[0]}')`);
  return pick(undefined, 'the text states no confidence');
}

/**
 * `**Source:** a, b` and `**Regulatory Basis:** x`. A comma separates sources, except before a
 * qualifier of the previous source ("MTBS, Imagery date: 2022-09-15" is one source, MTBS, with the
 * snippet "Imagery date: 2022-09-15"); a semicolon always separates.
 */
export function citationsOf(text: string): Citation[] {
  const citations: Citation[] = [];
  for (const m of text.matchAll(sourceLine)) {
    const regulatory = /regulatory/i.test(m[1] ?? '');
    for (const item of splitSources(stripTrailer(m[2] ?? ''))) {
      const citation: Citation = { source: item.source, source_type: regulatory ? 'regulatory-basis' : 'text-source' };
      if (item.qualifiers.length > 0) citation.snippet = item.qualifiers.join(', ');
      citations.push(citation);
    }
  }
  return uniqueCitations(citations);
}

// Markdown trailers that are not part of the value: a closing `*`, trailing spaces, a final period.
const stripTrailer = (value: string): string => value.replace(/\s+$/, '').replace(/[*_]+$/, '').replace(/\.$/, '').trim();

// "Imagery date: 2022-09-15", "updated 2022-10-25", "2022-09-15": qualifiers, not sources.
const qualifier = /^(?:[A-Za-z][\w ]{0,30}:\s|\d{4}-\d{2}-\d{2}\b|(?:updated|accessed|retrieved|as of)\b)/i;

function splitSources(value: string): Array<{ source: string; qualifiers: string[] }> {
  const items: Array<{ source: string; qualifiers: string[] }> = [];
  for (const group of value.split(';')) {
    let first = true;
    for (const raw of group.split(',')) {
      const piece = raw.trim();
      if (!piece) continue;
      const last = items[items.length - 1];
      if (last && !first && qualifier.test(piece)) last.qualifiers.push(piece);
      else items.push({ source: piece, qualifiers: [] });
      first = false;
    }
  }
  return items;
}
