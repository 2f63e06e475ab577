/**
 * The inline stylesheet and script of report.html, and the Content-Security-Policy that pins
 * them: the page loads nothing (default-src 'none'), and only this exact script may run (its
 * sha256 is in the policy), so even a payload that slipped past escaping could not execute.
 */
import { createHash } from 'node:crypto';

export const css = `
:root { color-scheme: light; --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #ffffff; --soft: #f5f6f8;
  --red: #b42318; --red-bg: #fdecea; --amber: #8a4b00; --amber-bg: #fff4e0; --blue: #174ea6; --blue-bg: #e8f0fe; --green: #146c2e; --green-bg: #e6f4ea; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
main, header > div { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
header { padding: 24px 0 20px; border-bottom: 4px solid currentColor; }
header .eyebrow { margin: 0; font-size: 13px; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
header h1 { margin: 4px 0 8px; font-size: 40px; line-height: 1.1; }
header p { margin: 4px 0; }
.v-non-compliant { background: var(--red-bg); color: var(--red); }
.v-could-not-evaluate { background: var(--soft); color: var(--fg); }
.v-MUST-compliant { background: var(--amber-bg); color: var(--amber); }
.v-SHOULD-compliant { background: var(--blue-bg); color: var(--blue); }
.v-fully-compliant { background: var(--green-bg); color: var(--green); }
header .gate, header .meta { color: var(--fg); }
header .meta { color: var(--muted); font-size: 13px; }
section { margin: 28px 0; }
h2 { font-size: 22px; margin: 0 0 12px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; }
#requirements-table td:first-child code { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--soft); border: 1px solid var(--line); padding: 8px 10px; margin: 4px 0 10px; white-space: pre-wrap; word-break: break-word; }
.status { font-weight: 600; white-space: nowrap; }
.status-failed { color: var(--red); }
.status-untested, .status-flaky { color: var(--amber); }
.status-passed { color: var(--green); }
.status-not-applicable, .status-errored { color: var(--muted); }
tr.row-failed { background: var(--red-bg); }
tr.row-untested, tr.row-flaky { background: var(--amber-bg); }
.flag { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 12px; font-weight: 700; letter-spacing: .03em; }
.flag-unproven { background: var(--amber-bg); color: var(--amber); border: 1px solid var(--amber); }
details { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 12px; background: var(--bg); }
details > summary { cursor: pointer; padding: 8px 12px; font-weight: 600; background: var(--soft); border-radius: 6px; }
details > .body { padding: 8px 14px 4px; }
details.failure { border-color: var(--red); }
details.failure > summary { background: var(--red-bg); color: var(--red); }
.finding { border-left: 4px solid var(--red); padding: 4px 0 4px 12px; margin: 8px 0 14px; }
.finding-message { font-weight: 600; margin: 4px 0; }
.finding dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 12px; margin: 4px 0; }
.finding dt { color: var(--muted); font-size: 13px; padding-top: 6px; }
.finding dd { margin: 0; }
blockquote { margin: 4px 0 8px; padding-left: 10px; border-left: 3px solid var(--line); color: var(--muted); }
.timeline { list-style: none; padding: 0; margin: 6px 0 10px; font-size: 14px; }
.timeline li { display: grid; grid-template-columns: 80px 80px 1fr; gap: 8px; padding: 2px 0; border-bottom: 1px dotted var(--line); }
.timeline .t { text-align: right; font-variant-numeric: tabular-nums; color: var(--muted); }
.timeline .kind { font-weight: 600; }
.track { position: relative; height: 14px; background: var(--soft); border: 1px solid var(--line); border-radius: 7px; margin: 6px 0; }
.track span { position: absolute; top: 2px; width: 8px; height: 8px; margin-left: -4px; border-radius: 50%; background: var(--blue); }
.track span.k-frame, .track span.k-event { background: var(--green); }
.track span.k-stderr, .track span.k-exit { background: var(--red); }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 0 0 10px; font-size: 14px; }
.filters fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 2px 10px; margin: 0; }
.filters button { font: inherit; padding: 2px 10px; }
.muted { color: var(--muted); }
ul.plain { padding-left: 20px; }
ol.frames { list-style: none; padding: 0; margin: 6px 0; font-size: 13px; }
ol.frames li { display: grid; grid-template-columns: 40px 1fr; gap: 8px; border-bottom: 1px dotted var(--line); }
ol.frames pre { margin: 0; white-space: pre-wrap; word-break: break-all; }
`;

/** Filters and expand/collapse: the page is complete without it (rows visible, failures open). */
export const script = `(function () {
  var root = document.documentElement;
  root.setAttribute('data-js', 'on');
  // report.html#<part>/<scenario>: open the details that hold the target, then show it.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    for (var d = target; d; d = d.parentElement) if (d.tagName === 'DETAILS') d.open = true;
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  reveal();
  var filters = document.getElementById('filters');
  if (!filters) return;
  filters.hidden = false;
  function apply() {
    var on = {};
    filters.querySelectorAll('input[type=checkbox]').forEach(function (box) { on[box.name + ':' + box.value] = box.checked; });
    document.querySelectorAll('#requirements-table tbody tr').forEach(function (row) {
      row.hidden = !(on['status:' + row.getAttribute('data-status')] && on['level:' + row.getAttribute('data-level')]);
    });
  }
  filters.addEventListener('change', apply);
  document.querySelectorAll('button[data-details]').forEach(function (button) {
    button.addEventListener('click', function () {
      var open = button.getAttribute('data-details') === 'open';
      document.querySelectorAll('details').forEach(function (d) { d.open = open; });
    });
  });
})();`;

const scriptHash = createHash('sha256').update(script, 'utf8').digest('base64');

export const contentSecurityPolicy = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
