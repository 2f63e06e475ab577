/**
 * The live page of `adk-conformance tap --ui`: one self-contained HTML document (inline CSS and
 * script, nothing fetched but its own /events stream), in the look of report.html
 * (harness/reporters/html.ts). Run data only ever reaches the DOM as textContent, never as markup,
 * and the Content-Security-Policy pins the one script by hash, so a hostile frame stays text.
 */
import { createHash } from 'node:crypto';
import type { RunStoreLimits } from './live-ui-store.ts';

const css = `
:root { color-scheme: light; --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #ffffff; --soft: #f5f6f8;
  --red: #b42318; --red-bg: #fdecea; --blue: #174ea6; --blue-bg: #e8f0fe; --green: #146c2e; --green-bg: #e6f4ea; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
header > div, main, footer > div { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
header { padding: 20px 0 16px; border-bottom: 4px solid var(--blue); background: var(--blue-bg); }
header .eyebrow { margin: 0; font-size: 13px; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
header h1 { margin: 4px 0 8px; font-size: 32px; line-height: 1.15; }
header p { margin: 4px 0; }
h2 { font-size: 22px; margin: 24px 0 12px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 4px 12px; margin: 12px 0 16px; }
input:focus-visible, a:focus-visible { outline: 3px solid var(--blue); outline-offset: 2px; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--soft); border: 1px solid var(--line); padding: 6px 8px; margin: 4px 0; white-space: pre-wrap; word-break: break-all; }
ol.runs { list-style: none; padding: 0; margin: 0; }
li.run { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 16px; padding: 8px 14px; }
li.run[data-verdict="failed"] { border: 2px solid var(--red); }
li.run h3 { margin: 0; font-size: 17px; }
.badge { display: inline-block; padding: 0 8px; border-radius: 4px; font-size: 13px; font-weight: 700; letter-spacing: .03em; background: var(--blue-bg); color: var(--blue); border: 1px solid currentColor; }
li.run[data-verdict="failed"] .badge { background: var(--red-bg); color: var(--red); }
li.run[data-verdict="passed"] .badge { background: var(--green-bg); color: var(--green); }
.meta, .omitted { color: var(--muted); font-size: 13px; margin: 2px 0 6px; }
ol.frames { list-style: none; padding: 0; margin: 6px 0; font-size: 14px; }
ol.frames > li { border-left: 3px solid var(--line); padding: 2px 0 2px 10px; margin: 0 0 6px; }
ol.frames > li.has-findings { border-left-color: var(--red); }
.frame-head { margin: 0; color: var(--muted); font-size: 13px; }
.finding { border-left: 4px solid var(--red); background: var(--red-bg); padding: 4px 10px; margin: 4px 0 8px; }
.finding p { margin: 2px 0; }
.finding .tag { font-weight: 700; color: var(--red); text-transform: uppercase; font-size: 12px; letter-spacing: .04em; }
.finding-message { font-weight: 600; }
.finding dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 12px; margin: 2px 0; }
.finding dt { color: var(--fg); font-size: 13px; padding-top: 6px; }
.finding dd { margin: 0; }
.run-findings h4, .first-finding h4 { margin: 8px 0 4px; font-size: 15px; }
.first-finding { border: 1px solid var(--red); border-radius: 6px; padding: 4px 10px; margin: 6px 0; }
.ending { font-weight: 600; margin: 6px 0 2px; }
footer { border-top: 1px solid var(--line); margin-top: 24px; padding: 12px 0 24px; color: var(--muted); font-size: 13px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

const script = `(function () {
  'use strict';
  var list = document.getElementById('runs');
  var none = document.getElementById('no-runs');
  var connection = document.getElementById('connection');
  var announcer = document.getElementById('announcer');
  var counts = document.getElementById('counts');
  var onlyFailed = document.getElementById('only-failed');
  var runs = new Map();
  var seq = 0;
  document.documentElement.setAttribute('data-js', 'on');
  document.getElementById('controls').hidden = false;

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function clock(ms) { return new Date(ms).toISOString().slice(11, 23) + ' UTC'; }
  function json(v) { try { return JSON.stringify(v, null, 2); } catch (e) { return String(v); } }
  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

  function findingBlock(f) {
    var box = el('div', 'finding');
    box.setAttribute('data-requirement', f.requirement);
    var head = el('p', 'finding-head');
    head.append(el('span', 'tag', 'violation'), ' ', el('strong', 'requirement', f.requirement), ' ', el('code', 'code', f.code), ' at ', el('code', 'path', f.path));
    box.append(head, el('p', 'finding-message', f.message));
    var dl = el('dl');
    [['expected', f.expected], ['actual', f.actual]].forEach(function (pair) {
      if (pair[1] === undefined) return;
      var dd = el('dd');
      dd.append(el('pre', null, json(pair[1])));
      dl.append(el('dt', null, pair[0]), dd);
    });
    if (dl.children.length > 0) box.append(dl);
    return box;
  }

  function refresh() {
    var failed = 0, running = 0;
    runs.forEach(function (r) { if (r.li.dataset.verdict === 'failed') failed++; if (r.li.dataset.verdict === 'running') running++; });
    counts.textContent = plural(runs.size, 'run') + ' shown: ' + failed + ' failed, ' + running + ' streaming.';
    none.hidden = runs.size > 0;
  }
  function filter(li) { li.hidden = onlyFailed.checked && li.dataset.verdict !== 'failed'; }
  onlyFailed.addEventListener('change', function () { runs.forEach(function (r) { filter(r.li); }); });

  function start(e) {
    var id = 'run-' + (++seq);
    var li = el('li', 'run');
    li.id = id;
    li.dataset.runId = e.runId;
    li.dataset.verdict = 'running';
    var article = el('article');
    article.setAttribute('aria-labelledby', id + '-title');
    var title = el('h3');
    title.id = id + '-title';
    var badge = el('span', 'badge', 'STREAMING');
    title.append(badge, ' ', e.method + ' ' + e.path);
    var frames = el('ol', 'frames');
    frames.setAttribute('aria-label', 'Frames of run ' + e.runId);
    var omitted = el('p', 'omitted');
    omitted.hidden = true;
    var runFindings = el('section', 'run-findings');
    runFindings.hidden = true;
    var heading = el('h4', null, 'Run-level findings');
    heading.id = id + '-run-findings';
    runFindings.setAttribute('aria-labelledby', heading.id);
    runFindings.append(heading);
    var ending = el('p', 'ending', 'Streaming…');
    var first = el('section', 'first-finding');
    first.hidden = true;
    // The default tap is named 'tap': 'tap tap' said nothing; a named one (front, back) is named.
    article.append(title, el('p', 'meta', 'Run ' + e.runId + (e.tap === 'tap' ? '' : ' · tap ' + e.tap) + (e.dialect ? ' · ' + e.dialect : '') + ' · started ' + clock(e.at)), first, frames, omitted, runFindings, ending);
    li.append(article);
    list.prepend(li);
    runs.set(e.runId, { li: li, badge: badge, first: first, frames: frames, omitted: omitted, runFindings: runFindings, ending: ending, at: e.at });
    filter(li);
  }

  function frame(r, e) {
    var li = el('li', 'frame');
    li.dataset.index = String(e.index);
    var head = 'frame ' + e.index + ' · +' + Math.max(0, Math.round(e.at - r.at)) + ' ms · ' + plural(e.bytes, 'byte') + (e.event ? ' · event: ' + e.event : '');
    if (e.findings.length > 0) { li.classList.add('has-findings'); head += ' · ' + plural(e.findings.length, 'violation'); }
    li.append(el('p', 'frame-head', head), el('pre', 'data', e.data));
    e.findings.forEach(function (f) { li.append(findingBlock(f)); });
    r.frames.append(li);
  }

  function end(r, e) {
    var failed = e.verdict === 'failed';
    r.li.dataset.verdict = e.verdict;
    r.badge.textContent = failed ? 'FAILED' : 'PASSED';
    // Labelled by what happened: a 401 answered before any stream is a refusal, not a complete run.
    var how = e.status !== undefined && (e.status < 200 || e.status >= 300) ? 'HTTP ' + e.status + ' (' + (e.status >= 400 ? 'refused' : 'no stream') + ')' : e.ending + (e.status !== undefined ? ' · HTTP ' + e.status : '');
    r.ending.textContent = 'Ended: ' + how + ' · ' + plural(e.frames, 'frame') + ' · ' + plural(e.findings, 'finding') + ' · verdict: ' + (failed ? 'failed' : 'passed');
    if (failed && (e.firstFinding || e.replay)) {
      // What to read first, above the raw frames, and how to send the run again.
      r.first.replaceChildren(el('h4', null, 'First finding'));
      if (e.firstFinding) r.first.append(findingBlock(e.firstFinding));
      if (e.replay) r.first.append(el('p', null, 'Replay it through the tap (fill in the $ variables):'), el('pre', 'replay', e.replay));
      r.first.hidden = false;
    }
    announcer.textContent = 'Run ' + e.runId + (failed ? ' failed with ' + plural(e.findings, 'finding') : ' passed') + '.';
    filter(r.li);
  }

  function handle(e) {
    if (e.kind === 'run-start') { if (!runs.has(e.runId)) start(e); refresh(); return; }
    var r = runs.get(e.runId);
    if (!r) return;
    if (e.kind === 'frame') frame(r, e);
    else if (e.kind === 'finding') { r.runFindings.hidden = false; r.runFindings.append(findingBlock(e.finding)); }
    else if (e.kind === 'run-end') { end(r, e); refresh(); }
  }

  var source = new EventSource('/events');
  source.addEventListener('reset', function () { runs.clear(); list.replaceChildren(); refresh(); });
  source.addEventListener('message', function (m) { handle(JSON.parse(m.data)); });
  source.addEventListener('omitted', function (m) {
    var o = JSON.parse(m.data);
    var r = runs.get(o.runId);
    if (!r) return;
    r.omitted.hidden = false;
    r.omitted.textContent = 'Not shown, to keep this page small: ' + plural(o.frames, 'later frame') + ' without findings and ' + plural(o.findings, 'finding') + ' past the bound.';
  });
  source.addEventListener('evict', function (m) {
    var id = JSON.parse(m.data).runId;
    var r = runs.get(id);
    if (r) { r.li.remove(); runs.delete(id); refresh(); }
  });
  source.addEventListener('closed', function () { source.close(); connection.textContent = 'The tap stopped: these are the last runs it saw.'; });
  source.addEventListener('open', function () { connection.textContent = 'Live: connected to the tap; runs appear as they stream, newest first.'; });
  source.addEventListener('error', function () {
    if (source.readyState !== EventSource.CLOSED) connection.textContent = 'Connection to the tap lost; reconnecting…';
  });
})();`;

const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

/** Only the page's own style and script, and its own /events. */
export const contentSecurityPolicy = `default-src 'none'; style-src 'sha256-${hash(css)}'; script-src 'sha256-${hash(script)}'; connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function renderLivePage(limits: RunStoreLimits): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ADK conformance tap: live runs</title>
<style>${css}</style>
</head>
<body>
<header><div>
<p class="eyebrow">ADK conformance tap</p>
<h1>Live runs</h1>
<p id="connection" role="status">Connecting to the tap…</p>
<p id="counts">0 runs shown.</p>
</div></header>
<main>
<section aria-labelledby="runs-heading">
<h2 id="runs-heading">Runs</h2>
<noscript><p>This page streams runs with JavaScript; turn it on to see them.</p></noscript>
<fieldset id="controls" hidden><legend>View</legend><label><input type="checkbox" id="only-failed"> Show only failed runs</label></fieldset>
<p id="no-runs">No run yet: send a request through the tap.</p>
<ol class="runs" id="runs"></ol>
</section>
<p id="announcer" class="visually-hidden" role="status"></p>
</main>
<footer><div>
<p>Each run shows its frames in order, each violation under the frame that produced it, and findings about the whole run (headers, framing, how it ended) at its end. This page keeps the last ${limits.maxRuns} runs, the first ${limits.maxFramesPerRun} frames of each (later frames only when they carry a violation) and ${limits.maxFindingsPerRun} findings per run; a page opened late is sent those first.</p>
</div></footer>
<script>${script}</script>
</body>
</html>
`;
}
