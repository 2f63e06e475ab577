import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { esc, inlineJson, inlineMarkdown, linkTerms, outcomesOnce, renderHtml } from './html.ts';
import { contentSecurityPolicy, script } from './html-assets.ts';
import { hostile, hostileRun, passingRun, realisticRun } from './test-fixture.ts';

const between = (html: string, startMarker: string, endMarker: string) => {
  const start = html.indexOf(startMarker);
  return html.slice(start, html.indexOf(endMarker, start));
};

describe('HTML reporter', () => {
  const html = renderHtml(realisticRun());

  it('puts the verdict first in the body, with the gate result and policy', () => {
    const body = html.slice(html.indexOf('<body>'));
    expect(body.indexOf('<h1 id="verdict">non-compliant</h1>')).toBeGreaterThan(0);
    expect(body.indexOf('id="verdict"')).toBeLessThan(body.indexOf('<section'));
    expect(body).toContain('The gate (must) is not met.');
    expect(body).toContain('Untested and flaky requirements count as failures');
    expect(body).toContain('<p id="verdict-observed">non-compliant: MUST 1 of 5 passed (3 failed, 1 untested)');
    expect(html).toContain('<title>ADK conformance: non-compliant</title>');
  });

  it('loads nothing: no external src or href, and a CSP that forbids fetching', () => {
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b|@import|url\(/i);
    expect(html.match(/\bhref="([^"]*)"/g)?.every((h) => h.startsWith('href="#'))).toBe(true);
    expect(contentSecurityPolicy).toMatch(/^default-src 'none';/);
  });

  it('pins the one inline script by its sha256 in the CSP', () => {
    const hash = createHash('sha256').update(script).digest('base64');
    expect(contentSecurityPolicy).toContain(`'sha256-${hash}'`);
    expect(html).toContain(`<script>${script}</script>`);
  });

  it('expands failures by default with findings, values and replay commands', () => {
    const failures = between(html, '<section id="failures">', '</section>');
    expect(failures.match(/<details class="failure" open/g)).toHaveLength(4);
    expect(failures).toContain('<p class="finding-message">frame 3 differs from the upstream bytes: the gateway re-serialised the JSON</p>');
    expect(failures).toContain('<pre class="replay">adk-conformance run --scenario cedar_creek_briefing --seed 42 --requirement GW-PASS-001</pre>');
    expect(failures).toContain(esc(JSON.stringify('data: {"partial":true,"author":"coordinator"}\n\n')));
  });

  it('tables every requirement with its seed section and flags the unproven ones', () => {
    const table = between(html, '<table id="requirements-table">', '</table>');
    expect(table.match(/<tr id="req-/g)).toHaveLength(11);
    expect(table).toContain('seed-002 § 2.1 Confidence Tiers (Degraded Mode)');
    const row = between(table, '<tr id="req-TR-STATE-003"', '</tr>');
    expect(row).toContain('UNPROVEN');
    expect(between(table, '<tr id="req-GW-LEGACY-002"', '</tr>')).not.toContain('UNPROVEN');
  });

  it('shows each scenario\'s timeline with t in ms, open unless it passed', () => {
    const scenarios = between(html, '<section id="scenarios">', '</section>');
    expect(scenarios).toContain('<li><span class="t">58 ms</span><span class="kind">frame</span><span class="summary">frame 1: functionCall x4</span></li>');
    expect(scenarios).toContain('<details class="scenario" id="normalizer/index_reuse">');
    expect(scenarios).toContain('<details class="scenario" open id="gateway/client_disconnect">');
    expect(scenarios).toContain('target exited with code 1 before the first frame');
  });

  it('gives every element a unique id, even when several parts run the same scenario (report.html#<part>/<scenario>)', () => {
    const base = realisticRun();
    const twice = renderHtml({ ...base, scenarios: [...base.scenarios, ...base.scenarios.map((s) => ({ ...s, part: 'proxy' as const }))] });
    const ids = [...twice.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(twice).toContain('id="proxy/client_disconnect"');
  });

  it('lists a requirement once under a scenario, with its worst status, and renders seed quotes\' Markdown', () => {
    expect(outcomesOnce([
      { requirement: 'A', scenario: 's', status: 'passed', findings: [] },
      { requirement: 'A', scenario: 's', status: 'failed', findings: [] },
      { requirement: 'B', scenario: 's', status: 'untested', findings: [], reason: 'r1' },
      { requirement: 'B', scenario: 's', status: 'untested', findings: [], reason: 'r1' },
    ])).toEqual([{ requirement: 'A', status: 'failed', reasons: [] }, { requirement: 'B', status: 'untested', reasons: ['r1'] }]);
    expect(inlineMarkdown('**Tier 1: Immediate (&lt; 100ms)**')).toBe('<strong>Tier 1: Immediate (&lt; 100ms)</strong>');
    expect(inlineMarkdown('- Raw SSE line forwarding (`data:` lines)')).toBe('Raw SSE line forwarding (<code>data:</code> lines)');
  });

  it('keeps a failing scenario\'s input in full, with an NDJSON download', () => {
    const base = realisticRun();
    const line = `{"content":{"parts":[{"text":"${'x'.repeat(400)}"}]}}`;
    const failing = { ...base.scenarios[0]!, status: 'failed' as const, input: { kind: 'data-lines' as const, lines: [line, '[DONE]'] } };
    const page = renderHtml({ ...base, scenarios: [failing] });
    expect(page).toContain('Input: 2 data lines, in full');
    expect(page).toContain(esc(line));
    expect(page).toContain(`href="data:application/x-ndjson;charset=utf-8,${esc(encodeURIComponent(`${line}\n[DONE]\n`))}"`);
  });

  it('links the framing terms of a shrunk generated run to their definitions', () => {
    expect(linkTerms('adk-js streaming, 2 step(s): model → tools; framing chunk-size, crlf; outcome complete')).toContain('framing <a href="#term-chunk-size">chunk-size</a>');
    const base = realisticRun();
    const req0 = { ...base.requirements[0]!, status: 'failed' as const, findings: [{ requirement: base.requirements[0]!.id, code: 'generated-run-fails', path: 'generated_3', message: 'shrunk to: adk-js, 1 step(s): model; framing chunk-size; outcome complete' }] };
    const page = renderHtml({ ...base, requirements: [req0, ...base.requirements.slice(1)] });
    expect(page).toContain('<dt id="term-chunk-size"><code>chunk-size</code></dt>');
  });

  it('is readable without JS: filters start hidden, rows and failures are not', () => {
    expect(html).toContain('<div class="filters" id="filters" hidden>');
    expect(between(html, '<tbody>', '</tbody>')).not.toContain(' hidden');
  });

  it('escapes every user-provided string, so an injected script is inert text', () => {
    const out = renderHtml(hostileRun());
    expect(out.match(/<script\b/g)).toHaveLength(2);
    expect(out).not.toContain('<img');
    expect(out).toContain(esc(hostile.script));
    expect(out).toContain('bell\\u0007 nul\\u0000');
    expect(out).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });

  it('embeds the run as inert JSON data that parses back to the run', () => {
    const run = hostileRun();
    const out = renderHtml(run);
    const data = between(out, '<script type="application/json" id="run-data">', '</script>').replace('<script type="application/json" id="run-data">', '');
    expect(data).not.toMatch(/[<>]/);
    expect(JSON.parse(data)).toEqual(JSON.parse(JSON.stringify(run)));
    expect(inlineJson('</script>\u2028')).toBe('"\\u003c/script\\u003e\\u2028"');
  });

  it('a fully compliant run shows the verdict and empty failure list', () => {
    const ok = renderHtml(passingRun());
    expect(ok).toContain('<header class="v-fully-compliant" id="top">');
    expect(ok).toContain('<p>No requirement failed.</p>');
  });
});

describe('partSummary', () => {
  it('never says "certified" for a part that is not compliant, and names what fell short (issue 28 §2)', async () => {
    const { partSummary } = await import('./html.ts');
    const r = (status: 'passed' | 'failed' | 'flaky' | 'untested', level: 'MUST' | 'SHOULD' = 'MUST') => ({ status, level });
    expect(partSummary([r('passed'), r('failed'), r('untested')])).toBe('not compliant: 1 of 3 passed, 1 failed, 1 untested');
    expect(partSummary([r('passed'), r('flaky', 'SHOULD')])).toBe('every MUST passed: 1 of 2 passed, 1 flaky');
    expect(partSummary([r('untested'), r('untested')])).toBe('nothing observed: 0 of 2 passed, 2 untested');
    expect(partSummary([r('passed'), r('passed', 'SHOULD')])).toBe('every requirement passed: 2 of 2 passed');
  });
});
