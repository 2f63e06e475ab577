/**
 * Why each requirement has the level it has (issue 28 §1): the sources behind it, the level those
 * sources support, and the behaviours they allow, which the requirement's check must never fail.
 * The records live beside each part's list (`<part>-basis.ts`), not inside the requirement
 * literals, so that the lists and their justification can change independently; basis.test.ts
 * holds both together and docs/requirements.md renders them.
 */
import type { Level } from '../model.ts';

export type SeedDocId = 'seed-000' | 'seed-001' | 'seed-002' | 'seed-003' | 'seed-004';

/** The research notes that record what real servers do and what users reported (shared/research). */
export type ResearchDoc = 'adk-wire-format' | 'adk-python-facts' | 'adk-field-2026-11';

/** Where the kit's research wrote a fact down, quoted verbatim so a reviewer can find it. */
export type Recorded = { doc: ResearchDoc; quote: string };

/**
 * A seed sentence, verbatim, under a heading of the seed. `binding` is verbatim text of the same
 * seed that makes a sentence without a normative word binding: a heading or a sentence of the
 * quote's own section (basis-rules.ts says which words bind, and why).
 */
export type SeedEvidence = { kind: 'seed'; doc: SeedDocId; section: string; quote: string; binding?: string };

/** What a real ADK server emits or needs, read from its source at a commit. */
export type RealServerEvidence = {
  kind: 'real-server';
  repo: 'google/adk-js' | 'google/adk-python' | 'google/adk-go';
  path: string;
  commit: string;
  behaviour: string;
  recorded?: Recorded;
};

/** What users of real servers, gateways and proxies reported: the thread and what it showed. */
export type FieldReportEvidence = { kind: 'field-report'; report: string; reported: string; recorded: Recorded };

/** A WHATWG SSE parsing rule (HTML §9.2), named as in scenarios/spec-refs.ts. */
export type WhatwgEvidence = { kind: 'whatwg'; rule: string; quote: string };

export type Evidence = SeedEvidence | RealServerEvidence | FieldReportEvidence | WhatwgEvidence;

/**
 * Where the kit believes a seed's own rule is wrong: what the seed says, what is judged instead,
 * the scenario that shows the failure, and the shipped mutant that applies the seed's rule (or
 * fails the same way), which the requirement's check catches.
 */
export type SeedCorrection = { seedRule: string; judges: string; scenario: string; mutant?: string };

export type Basis = {
  /** The sources, strongest first. */
  evidence: [Evidence, ...Evidence[]];
  /** The highest level these sources justify (basis-rules.ts). */
  supports: Level;
  /** Why the sources support no more than `supports`: required below MUST (a SHOULD says why). */
  why?: string;
  /** Behaviours the sources allow, in plain words: the requirement's check must never fail them. */
  allows: string[];
  note?: SeedCorrection;
};

export type BasisTable = Readonly<Record<string, Basis>>;

export const levelRank: Record<Level, number> = { MAY: 0, SHOULD: 1, MUST: 2 };
