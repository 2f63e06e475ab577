import { get, request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSseReader, type SseFrame } from '../core/sse.ts';
import type { Finding } from '../harness/model.ts';
import { axeAudit, axeSource, openPage, startCdp, startCdpTimeout, type Cdp } from '../test/chromium-support.ts';
import type { LiveEvent } from './live-events.ts';
import { createLiveUi, type LiveUi } from './live-ui.ts';
import { createRunStore } from './live-ui-store.ts';

const t0 = Date.UTC(2026, 0, 5, 9, 30, 0);
const violation: Finding = { requirement: 'ADK-STREAM-003', code: 'schema-invalid', path: 'frame[1]/content/parts', message: 'content.parts must be an array', expected: { type: 'array' }, actual: 'text' };
const endFinding: Finding = { requirement: 'ADK-STREAM-010', code: 'no-final-event', path: 'end', message: 'the stream ended without a partial:false event' };
const hostile = '{"text":"<img src=x onerror=\\"document.title=\'pwned\'\\"><script>document.title=\'pwned\'</script>"}';

const replayLine = `curl -N -X POST 'http://127.0.0.1:8090/run_sse' -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" -d '{"appName":"plain_text"}'`;

function failingRun(runId: string, at = t0): LiveEvent[] {
  return [
    { kind: 'run-start', runId, at, method: 'POST', path: '/run_sse', tap: 'front', dialect: 'adk-js' },
    { kind: 'frame', runId, index: 0, at: at + 12, bytes: hostile.length + 8, data: hostile, findings: [] },
    { kind: 'frame', runId, index: 1, at: at + 30, bytes: 26, data: '{"content":{"parts":"text"}}', findings: [violation] },
    { kind: 'finding', runId, at: at + 40, finding: endFinding },
    { kind: 'run-end', runId, at: at + 41, ending: 'upstream-disconnected', status: 200, frames: 2, findings: 2, verdict: 'failed', firstFinding: violation, replay: replayLine },
  ];
}

function passingRun(runId: string, at = t0): LiveEvent[] {
  return [
    { kind: 'run-start', runId, at, method: 'POST', path: '/run_sse', tap: 'front' },
    { kind: 'frame', runId, index: 0, at: at + 5, bytes: 40, data: '{"author":"a","partial":false}', findings: [] },
    { kind: 'run-end', runId, at: at + 9, ending: 'complete', status: 200, frames: 1, findings: 0, verdict: 'passed' },
  ];
}

/** An /events reader: every dispatched frame as it arrives, and the end of the stream. */
function readEvents(url: string) {
  const frames: SseFrame[] = [];
  let status = 0;
  let headers: IncomingHttpHeaders = {};
  const reader = createSseReader({ onFrame: (f) => frames.push(f) });
  const ended = new Promise<void>((resolve, reject) => {
    const req = get(url, (res) => {
      status = res.statusCode ?? 0;
      headers = res.headers;
      res.on('data', (chunk: Buffer) => reader.feed(chunk));
      res.on('end', () => { reader.end(); resolve(); });
    });
    req.on('error', reject);
  });
  return { frames, ended, status: () => status, headers: () => headers };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function plainRequest(url: string, options: { method?: string; host?: string } = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', ...(options.host ? { headers: { host: options.host } } : {}) }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString('utf8'); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('live page /events', () => {
  it('is a text/event-stream: a reset, the replay, then live events, one JSON LiveEvent per data line', async () => {
    const ui = await createLiveUi({ host: '127.0.0.1', port: 0 });
    const [start, frame0, frame1, finding, end] = failingRun('tap-run-0001');
    ui.sink.publish(start!);
    ui.sink.publish(frame0!);
    const events = readEvents(`${ui.url}events`);
    await until('the replay', () => events.frames.length >= 3);
    expect(events.status()).toBe(200);
    expect(events.headers()['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(events.headers()['cache-control']).toBe('no-store');
    for (const e of [frame1, finding, end]) ui.sink.publish(e!);
    await until('the live events', () => events.frames.length >= 6);
    await ui.close();
    await events.ended;

    expect(events.frames.map((f) => f.event ?? 'message')).toEqual(['reset', 'message', 'message', 'message', 'message', 'message', 'closed']);
    expect(JSON.parse(events.frames[0]?.data ?? '')).toEqual({ maxRuns: 20, maxFramesPerRun: 200, maxFindingsPerRun: 200 });
    const live = events.frames.slice(1, 6).map((f) => JSON.parse(f.data) as LiveEvent);
    expect(live).toEqual(failingRun('tap-run-0001'));
  });

  it('answers only GET on its own host names, with the page under a strict policy', async () => {
    const ui = await createLiveUi({ host: '127.0.0.1', port: 0 });
    try {
      const page = await plainRequest(ui.url);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; connect-src 'self'/);
      expect(page.body).not.toMatch(/\s(src|href)=/);
      expect((await plainRequest(ui.url, { host: 'attacker.example:80' })).status).toBe(403);
      expect((await plainRequest(ui.url, { method: 'POST' })).status).toBe(405);
      expect((await plainRequest(`${ui.url}nope`)).status).toBe(404);
    } finally {
      await ui.close();
    }
  });

  it('disconnects a page that stops reading instead of buffering for it, and says so once', async () => {
    const errors: Error[] = [];
    const ui = await createLiveUi({ host: '127.0.0.1', port: 0, maxFramesPerRun: 100_000, maxPageBacklogBytes: 64 * 1024, onError: (e) => errors.push(e) });
    let closed = false;
    await new Promise<void>((resolve, reject) => {
      const req = get(`${ui.url}events`, (res) => {
        res.pause(); // a page that never reads again
        res.socket.on('close', () => { closed = true; });
        resolve();
      });
      req.on('error', reject);
    });
    await until('the page to be registered', () => ui.sink.stats().pages === 1);
    ui.sink.publish({ kind: 'run-start', runId: 'flood', at: t0, method: 'POST', path: '/run_sse', tap: 'front' });
    const data = 'x'.repeat(4096);
    // Synchronous publishes: the socket cannot drain between them, so the kernel's buffers fill and then the page's backlog does.
    for (let i = 0; i < 20_000 && ui.sink.stats().slowPages === 0; i++) {
      expect(() => ui.sink.publish({ kind: 'frame', runId: 'flood', index: i, at: t0 + i, bytes: 4096, data, findings: [] })).not.toThrow();
    }
    expect(ui.sink.stats()).toMatchObject({ slowPages: 1, pages: 0 });
    ui.sink.publish({ kind: 'frame', runId: 'flood', index: 20_001, at: t0, bytes: 1, data: '{}', findings: [] });
    await until('the slow page to be cut', () => closed);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^live page: a page left more than 65536 bytes unread and was disconnected/);
    await ui.close();
  });

  it('configuration errors are thrown at once and say what to pass', async () => {
    await expect(createLiveUi({ host: '0.0.0.0', port: 0 })).rejects.toThrow(/127\.0\.0\.1 or ::1.*ssh -L/);
    await expect(createLiveUi({ host: '127.0.0.1', port: 70000 })).rejects.toThrow(/0 for any free port/);
    await expect(createLiveUi({ host: '127.0.0.1', port: 0, maxRuns: 0 })).rejects.toThrow(/maxRuns must be an integer from 1/);
    const ui = await createLiveUi({ host: '127.0.0.1', port: 0 });
    const port = new URL(ui.url).port;
    await expect(createLiveUi({ host: '127.0.0.1', port: Number(port) })).rejects.toThrow(/port is in use/);
    await ui.close();
  });
});

describe('live page run store', () => {
  it('keeps the last maxRuns runs and bounded frames and findings, keeping a late violation in place', () => {
    const store = createRunStore({ maxRuns: 2, maxFramesPerRun: 2, maxFindingsPerRun: 2 });
    const out = [...passingRun('a'), ...passingRun('b')].flatMap((e) => store.accept(e));
    expect(out.filter((m) => m.type === 'live')).toHaveLength(6);
    const evicted = store.accept({ kind: 'run-start', runId: 'c', at: t0, method: 'POST', path: '/run_sse', tap: 'front' });
    expect(evicted[0]).toEqual({ type: 'evict', runId: 'a' });
    for (let i = 0; i < 5; i++) store.accept({ kind: 'frame', runId: 'c', index: i, at: t0 + i, bytes: 2, data: 'x'.repeat(5000), findings: i === 4 ? [violation, violation] : [] });
    store.accept({ kind: 'finding', runId: 'c', at: t0 + 9, finding: endFinding });
    store.accept({ kind: 'frame', runId: 'zzz', index: 0, at: t0, bytes: 2, data: '{}', findings: [] });
    const replay = store.replay();
    expect(replay.map((m) => (m.type === 'live' ? `${m.event.kind}:${m.event.runId}` : `${m.type}:${m.runId}`))).toEqual([
      'run-start:b', 'frame:b', 'run-end:b', 'run-start:c', 'frame:c', 'frame:c', 'frame:c', 'omitted:c',
    ]);
    const frames = replay.flatMap((m) => (m.type === 'live' && m.event.kind === 'frame' && m.event.runId === 'c' ? [m.event] : []));
    expect(frames.map((f) => f.index)).toEqual([0, 1, 4]);
    expect(frames[1]?.data).toMatch(/ \[cut: 5000 bytes, the first 4096 shown\]$/);
    expect(frames[2]).toMatchObject({ index: 4, data: '[frame not kept: this page keeps the first 2 frames of a run]', findings: [violation, violation] });
    expect(replay.at(-1)).toEqual({ type: 'omitted', runId: 'c', frames: 3, findings: 1 });
    expect(store.stats()).toEqual({ runs: 2, ignoredEvents: 1, omittedFrames: 3, omittedFindings: 1, evictedRuns: 1 });
  });
});

describe('live page in headless Chromium', () => {
  let ui: LiveUi;
  let cdp: Cdp | undefined;
  beforeAll(async () => { ui = await createLiveUi({ host: '127.0.0.1', port: 0, maxRuns: 5 }); });
  beforeAll(async () => { cdp = await startCdp(); }, startCdpTimeout);
  afterAll(async () => {
    await cdp?.stop();
    await ui.close();
  });
  // The later tests read the runs the earlier ones publish; each publishes those itself when an earlier
  // test did not get to, so one failure is reported once, not again by every test after it.
  const published = new Set<string>();
  const publishRuns = () => {
    if (!published.has('tap-run-0007')) for (const e of failingRun('tap-run-0007')) ui.sink.publish(e);
    if (!published.has('tap-run-0008')) for (const e of passingRun('tap-run-0008', t0 + 1000)) ui.sink.publish(e);
    published.add('tap-run-0007').add('tap-run-0008');
  };

  const view = `(() => {
    const run = [...document.querySelectorAll('li.run')].find((li) => li.dataset.runId === 'tap-run-0007');
    const frame = run && run.querySelector('li.frame[data-index="1"]');
    const finding = frame && frame.querySelector('.finding');
    return {
      verdict: run ? run.dataset.verdict : null,
      badge: run ? run.querySelector('.badge').textContent : null,
      ending: run ? run.querySelector('.ending').textContent : null,
      frames: run ? run.querySelectorAll('li.frame').length : 0,
      frameText: frame ? frame.querySelector('pre.data').textContent : null,
      findingVisible: !!finding && finding.checkVisibility(),
      findingText: finding ? finding.textContent : null,
      firstFrameFindings: run ? run.querySelectorAll('li.frame[data-index="0"] .finding').length : -1,
      runFindings: run ? [...run.querySelectorAll('.run-findings .requirement')].map((e) => e.textContent) : [],
      images: document.querySelectorAll('img').length,
      title: document.title,
      counts: document.getElementById('counts').textContent,
      border: run ? getComputedStyle(run).borderTopColor : null,
      meta: run ? run.querySelector('.meta').textContent : null,
      // The first finding and its replay sit above the frames (issue 31 §4).
      first: run && run.querySelector('.first-finding').checkVisibility() ? run.querySelector('.first-finding').textContent : null,
      firstBeforeFrames: run ? !!(run.querySelector('.first-finding').compareDocumentPosition(run.querySelector('ol.frames')) & Node.DOCUMENT_POSITION_FOLLOWING) : false,
    };
  })()`;
  type View = { verdict: string | null; badge: string | null; ending: string | null; frames: number; frameText: string | null; findingVisible: boolean; findingText: string | null; firstFrameFindings: number; runFindings: string[]; images: number; title: string; counts: string; border: string | null; meta: string | null; first: string | null; firstBeforeFrames: boolean };

  it('shows a run as it streams, the violation in place on its frame, and marks the run failed in text', async () => {
    if (!cdp) throw new Error('Chromium did not start (see beforeAll)');
    const page = await openPage(cdp, ui.url);
    await page.waitFor<string>(`document.getElementById('connection').textContent`, (t) => t.startsWith('Live'), 'the connected status');
    const [start, frame0, frame1, finding, end] = failingRun('tap-run-0007');
    published.add('tap-run-0007');
    ui.sink.publish(start!);
    ui.sink.publish(frame0!);
    const streaming = await page.waitFor<View>(view, (v) => v.frames === 1, 'the first frame');
    expect(streaming.verdict).toBe('running');
    expect(streaming.badge).toBe('STREAMING');
    ui.sink.publish(frame1!);
    ui.sink.publish(finding!);
    ui.sink.publish(end!);
    const done = await page.waitFor<View>(view, (v) => v.verdict === 'failed', 'the failed verdict');
    expect(done).toMatchObject({ badge: 'FAILED', frames: 2, frameText: '{"content":{"parts":"text"}}', findingVisible: true, firstFrameFindings: 0, runFindings: ['ADK-STREAM-010'], images: 0, title: 'ADK conformance tap: live runs' });
    expect(done.findingText).toContain('ADK-STREAM-003');
    expect(done.findingText).toContain('schema-invalid');
    expect(done.findingText).toContain('content.parts must be an array');
    expect(done.ending).toBe('Ended: upstream-disconnected · HTTP 200 · 2 frames · 2 findings · verdict: failed');
    expect(done.first).toContain('First finding');
    expect(done.first).toContain('content.parts must be an array');
    expect(done.first).toContain(replayLine);
    expect(done.firstBeforeFrames).toBe(true);
    expect(streaming.first).toBeNull();
    expect(done.meta).toMatch(/^Run tap-run-0007 · tap front · adk-js · started /);
    expect(done.counts).toBe('1 run shown: 1 failed, 0 streaming.');
    // The inline stylesheet ran under the page's hash-pinned policy: a failed run has the red border.
    expect(done.border).toBe('rgb(180, 35, 24)');
    expect(await page.evaluate<string>(`document.getElementById('announcer').textContent`)).toBe('Run tap-run-0007 failed with 2 findings.');
    const origin = ui.url.replace(/\/$/, '');
    const requested = cdp.events.filter((e) => e.method === 'Network.requestWillBeSent' && e.sessionId === page.sessionId).map((e) => (e.params?.request as { url: string }).url);
    expect(requested.every((u) => u.startsWith(origin))).toBe(true);
    expect(requested).toContain(`${origin}/events`);
  });

  it('a page opened after the run is sent it first (replay), and live runs after it', async () => {
    if (!cdp) throw new Error('Chromium did not start (see beforeAll)');
    publishRuns();
    const page = await openPage(cdp, ui.url);
    const replayed = await page.waitFor<View>(view, (v) => v.verdict === 'failed', 'the replayed failed run');
    expect(replayed).toMatchObject({ badge: 'FAILED', frames: 2, findingVisible: true, runFindings: ['ADK-STREAM-010'] });
    expect(replayed.findingText).toContain('ADK-STREAM-003');
    const order = await page.evaluate<string[]>(`[...document.querySelectorAll('li.run')].map((li) => li.dataset.runId + ':' + li.dataset.verdict)`);
    expect(order).toEqual(['tap-run-0008:passed', 'tap-run-0007:failed']);
  });

  it('passes axe-core\'s WCAG 2 A and AA rules and its filter works from the keyboard', async () => {
    if (!cdp) throw new Error('Chromium did not start (see beforeAll)');
    publishRuns();
    const page = await openPage(cdp, ui.url, { bypassCsp: true });
    await page.waitFor<number>(`document.querySelectorAll('li.run').length`, (n) => n === 2, 'both runs');
    await page.evaluate(axeSource);
    expect(JSON.parse(await page.evaluate<string>(axeAudit, true))).toEqual([]);
    // The audit is live: an unnamed image on the same page is found.
    const broken = JSON.parse(await page.evaluate<string>(`document.body.insertAdjacentHTML('beforeend', '<img id="a11y-probe" src="data:,">'); ${axeAudit}`, true)) as Array<{ id: string }>;
    expect(broken.map((v) => v.id)).toContain('image-alt');
    await page.evaluate(`document.getElementById('a11y-probe').remove()`);

    const key = async (type: 'keyDown' | 'keyUp', k: string, code: string, vk: number) => cdp!.send('Input.dispatchKeyEvent', { type, key: k, code, windowsVirtualKeyCode: vk, ...(k === ' ' && type === 'keyDown' ? { text: ' ' } : {}) }, page.sessionId);
    await key('keyDown', 'Tab', 'Tab', 9);
    await key('keyUp', 'Tab', 'Tab', 9);
    expect(await page.evaluate<string>(`document.activeElement.id + ':' + document.activeElement.labels[0].textContent.trim()`)).toBe('only-failed:Show only failed runs');
    await key('keyDown', ' ', 'Space', 32);
    await key('keyUp', ' ', 'Space', 32);
    const visible = await page.waitFor<string[]>(`[...document.querySelectorAll('li.run')].filter((li) => li.checkVisibility()).map((li) => li.dataset.runId)`, (ids) => ids.length === 1, 'only the failed run');
    expect(visible).toEqual(['tap-run-0007']);
  });

  it('tells an open page that the tap stopped', async () => {
    if (!cdp) throw new Error('Chromium did not start (see beforeAll)');
    publishRuns();
    const page = await openPage(cdp, ui.url);
    await page.waitFor<string>(`document.getElementById('connection').textContent`, (t) => t.startsWith('Live'), 'the connected status');
    await ui.close();
    await page.waitFor<string>(`document.getElementById('connection').textContent`, (t) => t === 'The tap stopped: these are the last runs it saw.', 'the stopped status');
    expect(await page.evaluate<number>(`document.querySelectorAll('li.run').length`)).toBe(2);
  });
});

describe('live page labels (issue 31 §4)', () => {
  let ui: LiveUi;
  let cdp: Cdp | undefined;
  beforeAll(async () => { ui = await createLiveUi({ host: '127.0.0.1', port: 0 }); });
  beforeAll(async () => { cdp = await startCdp(); }, startCdpTimeout);
  afterAll(async () => { await cdp?.stop(); await ui.close(); });

  it('a 401 answer is labelled by its status, not "complete"; the default tap is not named "tap tap"', async () => {
    if (!cdp) throw new Error('Chromium did not start (see beforeAll)');
    const page = await openPage(cdp, ui.url);
    await page.waitFor<string>(`document.getElementById('connection').textContent`, (t) => t.startsWith('Live'), 'the connected status');
    const refused: Finding = { requirement: 'GW-AUTH-001', code: 'status', path: 'status', message: 'HTTP 401' };
    ui.sink.publish({ kind: 'run-start', runId: 'tap-run-0001', at: t0, method: 'POST', path: '/run_sse', tap: 'tap' });
    ui.sink.publish({ kind: 'run-end', runId: 'tap-run-0001', at: t0 + 3, ending: 'complete', status: 401, frames: 0, findings: 1, verdict: 'failed', firstFinding: refused });
    const ending = await page.waitFor<string>(`(document.querySelector('li.run .ending') || { textContent: '' }).textContent`, (t) => t.startsWith('Ended'), 'the end');
    expect(ending).toBe('Ended: HTTP 401 (refused) · 0 frames · 1 finding · verdict: failed');
    const meta = await page.evaluate<string>(`document.querySelector('li.run .meta').textContent`);
    expect(meta).toMatch(/^Run tap-run-0001 · started /);
    expect(meta).not.toMatch(/tap tap/);
  });
});
