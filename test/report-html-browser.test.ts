/**
 * report.html as a person sees it, in headless Chromium (Debian's `chromium`, no npm dependency):
 * once with --dump-dom (the DOM after load), once over the DevTools protocol on a pipe
 * (--remote-debugging-pipe) to read layout, visibility and every network request, with and
 * without JavaScript. A missing Chromium fails the test with how to install it; it never skips.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from '../harness/reporters/index.ts';
import { hostileRun } from '../harness/reporters/test-fixture.ts';
import { axeSource, baseFlags, chromiumPath, startCdp, startCdpTimeout, type Cdp } from './chromium-support.ts';

type PageView = {
  title: string; js: string | null; verdict: string; verdictTop: number; verdictVisible: boolean; headerBackground: string;
  findingVisible: boolean; findingText: string; scripts: number; handlers: number; links: string[]; filtersHidden: boolean; visibleRows: number; rows: number;
};

const inspect = `JSON.stringify((() => {
  const verdict = document.getElementById('verdict');
  const finding = [...document.querySelectorAll('.finding-message')].find((p) => p.textContent.includes('gateway said'));
  return {
    title: document.title,
    js: document.documentElement.getAttribute('data-js'),
    verdict: verdict.textContent,
    verdictTop: verdict.getBoundingClientRect().top,
    verdictVisible: verdict.checkVisibility(),
    headerBackground: getComputedStyle(document.querySelector('header')).backgroundColor,
    findingVisible: !!finding && finding.checkVisibility() && finding.getBoundingClientRect().height > 0,
    findingText: finding ? finding.textContent : '',
    scripts: document.scripts.length,
    handlers: document.querySelectorAll('[onerror],[onload],[onclick]').length,
    links: [...document.querySelectorAll('[src],[href]')].map((e) => e.getAttribute('src') ?? e.getAttribute('href')),
    filtersHidden: document.getElementById('filters').hidden,
    visibleRows: [...document.querySelectorAll('#requirements-table tbody tr')].filter((r) => r.checkVisibility()).length,
    rows: document.querySelectorAll('#requirements-table tbody tr').length,
  };
})())`;

describe('report.html in headless Chromium', () => {
  let dir: string;
  let url: string;
  let cdp: Cdp | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'adk-html-'));
    const [file] = await writeReports(hostileRun(), { outDir: join(dir, 'report'), reporters: ['html'] });
    url = pathToFileURL(file ?? '').href;
  });

  beforeAll(async () => { cdp = await startCdp(); }, startCdpTimeout);

  afterAll(async () => {
    await cdp?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('the dumped DOM shows the verdict first and the injected script as inert text', async () => {
    const binary = chromiumPath();
    const profile = await mkdtemp(join(tmpdir(), 'adk-chromium-'));
    const run = spawnSync(binary, [...baseFlags(profile), '--dump-dom', url], { encoding: 'utf8', timeout: 60_000 });
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => undefined);
    expect(run.error, `chromium failed to run: ${String(run.error)}`).toBeUndefined();
    const dom = run.stdout;
    const body = dom.slice(dom.indexOf('<body'));
    expect(body.indexOf('<h1 id="verdict">non-compliant</h1>')).toBeGreaterThan(0);
    expect(body.indexOf('id="verdict"')).toBeLessThan(body.indexOf('<section'));
    expect(dom).toContain('<html lang="en" data-js="on">');
    expect(dom).toContain('<title>ADK conformance: non-compliant</title>');
    expect(dom.match(/<script\b/g)).toHaveLength(2);
    expect(dom).toContain('gateway said &lt;script&gt;document.title="pwned"&lt;/script&gt;&lt;img src=x onerror="document.title=\'pwned\'"&gt;');
  });

  it('a person sees the verdict at the top and the failure expanded; nothing runs but the report\'s script; nothing is fetched', async () => {
    if (!cdp) throw new Error('Chromium did not start (see beforeAll)');
    const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true }) as { sessionId: string };
    await cdp.send('Network.enable', {}, sessionId);
    await cdp.send('Page.enable', {}, sessionId);
    const view = async () => {
      const loaded = cdp!.next('Page.loadEventFired');
      await cdp!.send('Page.navigate', { url }, sessionId);
      await loaded;
      const { result } = await cdp!.send('Runtime.evaluate', { expression: inspect, returnByValue: true }, sessionId) as { result: { value: string } };
      return JSON.parse(result.value) as PageView;
    };

    const page = await view();
    expect(page.title).toBe('ADK conformance: non-compliant');
    expect(page.verdict).toBe('non-compliant');
    expect(page.verdictVisible).toBe(true);
    expect(page.verdictTop).toBeLessThan(150);
    expect(page.headerBackground).toBe('rgb(253, 236, 234)');
    expect(page.findingVisible).toBe(true);
    expect(page.findingText).toContain('<script>document.title="pwned"</script>');
    expect(page.js).toBe('on');
    expect(page.scripts).toBe(2);
    expect(page.handlers).toBe(0);
    expect(page.links.every((l) => l.startsWith('#'))).toBe(true);
    expect(page.filtersHidden).toBe(false);
    const requested = cdp.events.filter((e) => e.method === 'Network.requestWillBeSent').map((e) => (e.params?.request as { url: string }).url);
    expect(requested).toEqual([url]);

    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true }, sessionId);
    const noJs = await view();
    expect(noJs.js).toBeNull();
    expect(noJs.verdictTop).toBeLessThan(150);
    expect(noJs.findingVisible).toBe(true);
    expect(noJs.filtersHidden).toBe(true);
    expect(noJs.visibleRows).toBe(noJs.rows);
    expect(noJs.rows).toBe(11);
  });

  it('passes axe-core\'s WCAG 2 A and AA rules (headings, contrast, names, landmarks) and can be used from the keyboard', async () => {
    if (!cdp) throw new Error('Chromium did not start (see beforeAll)');
    const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true }) as { sessionId: string };
    await cdp.send('Page.enable', {}, sessionId);
    // The report's CSP allows only its own script; the audit tool is let in for this test alone.
    await cdp.send('Page.setBypassCSP', { enabled: true }, sessionId);
    const loaded = cdp.next('Page.loadEventFired');
    await cdp.send('Page.navigate', { url }, sessionId);
    await loaded;
    await cdp.send('Runtime.evaluate', { expression: axeSource }, sessionId);
    const audit = `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => JSON.stringify(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))))`;
    const { result } = await cdp.send('Runtime.evaluate', { expression: audit, awaitPromise: true, returnByValue: true }, sessionId) as { result: { value: string } };
    expect(JSON.parse(result.value)).toEqual([]);
    // The audit is live: the same run over the page with one unnamed image finds it.
    const broken = await cdp.send('Runtime.evaluate', { expression: `document.body.insertAdjacentHTML('beforeend', '<img id="a11y-probe" src="data:,">'); ${audit}`, awaitPromise: true, returnByValue: true }, sessionId) as { result: { value: string } };
    expect((JSON.parse(broken.result.value) as Array<{ id: string }>).map((v) => v.id)).toContain('image-alt');
    await cdp.send('Runtime.evaluate', { expression: `document.getElementById('a11y-probe').remove()` }, sessionId);
    // Keyboard: Tab reaches the report's controls in order, and Enter on a summary opens its details.
    const tab = async () => {
      await cdp!.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 }, sessionId);
      await cdp!.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 }, sessionId);
    };
    const focused = async () => ((await cdp!.send('Runtime.evaluate', { expression: 'document.activeElement.tagName + (document.activeElement.closest("details") ? " in details" : "")', returnByValue: true }, sessionId)) as { result: { value: string } }).result.value;
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) { await tab(); seen.push(await focused()); }
    expect(seen.filter((t) => t !== 'BODY').length).toBe(12);
    expect(seen.some((t) => t.startsWith('SUMMARY') || t.startsWith('A') || t.startsWith('INPUT'))).toBe(true);
  });
});

