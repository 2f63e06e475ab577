/**
 * `adk-conformance tap --ui` end to end, in headless Chromium: real traffic through a real tap (the
 * command itself) in front of an upstream whose event carries a snake_case key besides its own
 * camelCase one. The page, opened before the run, shows the run's frame with the ADK-KEY-001
 * violation in place on it and marks the run failed in text; a correct run beside it passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTapCommand } from './command-test-support.ts';
import { openPage, startCdp, startCdpTimeout, type Cdp } from '../test/chromium-support.ts';
import { rawRequest } from '../test/gateway-fixtures.ts';
import { clientHeaders, jsFinalFrame, runBody, startUpstream, stream } from './test-support.ts';

const final = jsFinalFrame();
const frame = (event: Record<string, unknown>) => `data: ${JSON.stringify(event)}\n\n`;

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let cdp: Cdp | undefined;
beforeAll(async () => { cdp = await startCdp(); }, startCdpTimeout);
beforeAll(async () => {
  upstream = await startUpstream({
    good: stream([final.bytes]),
    snake: stream([frame({ ...final.event, invocation_id: final.event['invocationId'] })]),
  });
});
afterAll(async () => {
  await cdp?.stop();
  await upstream.close();
});

describe('tap --ui in headless Chromium', () => {
  it('shows a live run with its violation in place on the frame, and marks it failed', async () => {
    const livePage = /^live page on (\S+)/;
    const command = await startTapCommand(['--upstream', upstream.url, '--role', 'adk', '--port', '0', '--ui', '--ui-port', '0', '--reporter', 'json', '--out', `${process.env['TMPDIR'] ?? '/tmp'}/tap-live-e2e-${process.pid}`], [livePage]);
    const { url: tap, exit, stop } = command;
    const ui = command.found(livePage) as string;
    const page = await openPage(cdp!, ui);
    await page.waitFor<string>(`document.getElementById('connection').textContent`, (t) => t.startsWith('Live'), 'the connected status');

    await rawRequest(`${tap}/run_sse`, { body: runBody('good'), headers: clientHeaders });
    await rawRequest(`${tap}/run_sse`, { body: runBody('snake'), headers: clientHeaders });

    type View = Array<{ id: string; verdict: string; badge: string; frameFindings: string[] }>;
    const view = `[...document.querySelectorAll('li.run')].map((li) => ({
      id: li.dataset.runId, verdict: li.dataset.verdict, badge: li.querySelector('.badge').textContent,
      frameFindings: [...li.querySelectorAll('li.frame[data-index="0"] .finding')].map((f) => f.textContent),
    }))`;
    const runs = await page.waitFor<View>(view, (v) => v.length === 2 && v.every((r) => r.verdict !== 'running'), 'both runs ended');
    const byId = Object.fromEntries(runs.map((r) => [r.id, r]));
    expect(byId['tap-run-0001']).toMatchObject({ verdict: 'passed', frameFindings: [] });
    expect(byId['tap-run-0002']).toMatchObject({ verdict: 'failed', badge: 'FAILED' });
    expect(byId['tap-run-0002']?.frameFindings).toHaveLength(1);
    expect(byId['tap-run-0002']?.frameFindings[0]).toContain('ADK-KEY-001');
    expect(byId['tap-run-0002']?.frameFindings[0]).toContain('invocation_id');

    stop('SIGINT');
    // ADK-KEY-001 is a SHOULD: the run failed it, and the MUST gate still passes (exit 0).
    expect(await exit).toBe(0);
  }, 60_000);
});
