/**
 * One table of the pipeline's parts (issue 13 §5): for each part, the flags that certify it by URL,
 * command or module, its contract document, its requirements (id prefixes and counts, read from
 * the one requirement registry), and what the reference run uses. docs/harness.md's parts table,
 * `run --help`'s target list and the HTML report are checked against it or drawn from it, so they
 * cannot disagree. Every part is one a profile's `parts` may declare (harness/profile.ts).
 */
import type { Part } from './model.ts';
import { requirements } from './requirements/index.ts';

export type PartInfo = {
  part: Part;
  label: string;
  /** Target flags, URL first, then command, then module. */
  flags: { url?: string; command?: string; module?: string };
  contract: string;
  /** What certifies the part when no target flag is given. */
  reference: string;
};

export const partsTable: readonly PartInfo[] = [
  { part: 'gateway', label: 'gateway', flags: { url: '--gateway URL', command: '--gateway-cmd "CMD"' }, contract: 'docs/harness-gateway.md', reference: '`reference-impl/gateway` as a child process' },
  { part: 'transformer', label: 'transformer', flags: { command: '--transformer-cmd "CMD"', module: '--transformer-module PATH' }, contract: 'docs/transform-contract.md, docs/harness.md', reference: 'its module' },
  { part: 'normalizer', label: 'normaliser', flags: { command: '--normalizer-cmd "CMD"', module: '--normalizer-module PATH' }, contract: 'docs/harness-normalizer.md', reference: 'its module' },
  { part: 'audit-bridge', label: 'audit bridge', flags: { command: '--audit-bridge-cmd "CMD"', module: '--audit-bridge-module PATH' }, contract: 'docs/audit-bridge-contract.md', reference: 'in process' },
  { part: 'proof-stream', label: 'proof-layer stream', flags: { module: '--proof-stream-module PATH' }, contract: 'docs/proof-stream-contract.md', reference: '`reference-impl/proof-layer-stream.ts`, in virtual time' },
  { part: 'proxy', label: 'cookie-to-bearer proxy', flags: { url: '--proxy URL', command: '--proxy-cmd "CMD"' }, contract: 'docs/proxy-contract.md', reference: '`adk-conformance proxy` as a child process, in front of the reference gateway' },
  { part: 'client', label: 'client', flags: { command: '--client-cmd "CMD"', module: '--client-module PATH' }, contract: 'docs/client-contract.md', reference: '`harness/targets/client/reference.ts` over real HTTP' },
  { part: 'adk-server', label: 'server helper around an adk-js Runner', flags: { module: '--adk-server-module PATH' }, contract: 'docs/adk-server-contract.md', reference: 'not in the reference run (it loads the optional adk-js runtime): `reference-impl/adk-server.ts` is certified by `--adk-server-module reference-impl/adk-server.ts`' },
  { part: 'adk-stream', label: 'ADK server stream', flags: {}, contract: 'docs/tap.md', reference: 'not certified by `run`: judged live by `adk-conformance tap --upstream URL`' },
];

/** "GW-* (54)": each id prefix of the part's requirements with its count, from the registry. */
export function requirementSummary(part: Part): string {
  const counts = new Map<string, number>();
  for (const r of requirements.values()) {
    if (r.part !== part) continue;
    const prefix = r.id.split('-')[0] ?? r.id;
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts].map(([prefix, n]) => `${prefix}-* (${n})`).join(', ');
}

const flagList = (p: PartInfo) => [p.flags.url, p.flags.command, p.flags.module].filter((f): f is string => f !== undefined);

/** The Markdown table docs/harness.md carries (a test compares them). */
export function partsMarkdown(): string {
  const rows = partsTable.map((p) => `| ${p.label} (\`${p.part}\`) | ${flagList(p).map((f) => `\`${f}\``).join(', ')} | ${p.contract} | ${requirementSummary(p.part).replace(/\*/g, '\\*')} | ${p.reference} |`);
  return ['| part (profile name) | flags | contract | requirements | reference (no target flag) |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
