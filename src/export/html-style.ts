/**
 * The stylesheet and the one small script of an exported session page. The page reads fully
 * without the script; it only adds "expand all / collapse all" buttons.
 */

export const EXPORT_CSS = `
:root {
  color-scheme: light dark;
  --bg: #fbfbfa; --fg: #1f2328; --muted: #6a737d; --faint: #8b949e; --border: #d8dee4;
  --card: #ffffff; --user-bg: #eef4ff; --user-border: #9ab8f0; --code-bg: #f3f4f6;
  --tool-bg: #f7f7f9; --accent: #0969da; --label-bg: #fff1c2; --label-fg: #6b4f00;
  --err-bg: #fff0f0; --err-fg: #b3261e; --err-border: #f2b8b5;
  --warn-bg: #fff8e6; --warn-fg: #7a5200; --add-fg: #116329; --add-bg: #e6ffec;
  --del-fg: #a40e26; --del-bg: #ffebe9; --notice-bg: #f4f0ff; --notice-border: #c5b5f5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111418; --fg: #e1e4e8; --muted: #959da5; --faint: #6e7681; --border: #30363d;
    --card: #161b22; --user-bg: #13233d; --user-border: #2f5da8; --code-bg: #1c2128;
    --tool-bg: #1a1f26; --accent: #58a6ff; --label-bg: #4a3b00; --label-fg: #ffe08a;
    --err-bg: #2d1517; --err-fg: #ff8a80; --err-border: #6e2a2a;
    --warn-bg: #2b2210; --warn-fg: #f0c36a; --add-fg: #7ee2a8; --add-bg: #12301f;
    --del-fg: #ffa198; --del-bg: #3a1619; --notice-bg: #1f1a33; --notice-border: #5a4a9a;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.55 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif;
}
.page { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
header.session h1 { font-size: 1.5rem; margin: 0 0 .75rem; overflow-wrap: anywhere; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0 0 1rem; font-size: .9rem; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.toolbar { display: flex; gap: .5rem; margin: .5rem 0 1rem; }
.toolbar button { font: inherit; font-size: .8rem; padding: .2rem .6rem; border: 1px solid var(--border); border-radius: 6px; background: var(--card); color: var(--fg); cursor: pointer; }
h2.section { font-size: 1.1rem; border-bottom: 1px solid var(--border); padding-bottom: .3rem; margin: 2rem 0 1rem; }
.entry { margin: 0 0 1rem; padding: .6rem .9rem; border: 1px solid var(--border); border-radius: 8px; background: var(--card); }
.entry.user { background: var(--user-bg); border-color: var(--user-border); }
.entry.failed { border-color: var(--err-border); }
.entry-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .5rem; font-size: .8rem; color: var(--muted); margin-bottom: .3rem; }
.entry-head .role { font-weight: 600; color: var(--fg); }
.entry-head time, .entry-head .usage { margin-left: auto; }
.entry-head .usage + time { margin-left: 0; }
.label { display: inline-block; padding: 0 .45rem; border-radius: 999px; background: var(--label-bg); color: var(--label-fg); font-size: .75rem; font-weight: 600; }
.plain { white-space: pre-wrap; overflow-wrap: anywhere; }
.md { overflow-wrap: anywhere; }
.md p { margin: .4rem 0; }
.md .md-h { margin: .8rem 0 .4rem; line-height: 1.3; }
.md h3.md-h { font-size: 1.2rem; } .md h4.md-h { font-size: 1.05rem; } .md h5.md-h, .md h6.md-h { font-size: .95rem; }
.md ul, .md ol { margin: .3rem 0; padding-left: 1.6rem; }
.md blockquote { margin: .4rem 0; padding: 0 .8rem; border-left: 3px solid var(--border); color: var(--muted); }
.md code { background: var(--code-bg); padding: .05rem .3rem; border-radius: 4px; }
.md .url { color: var(--accent); overflow-wrap: anywhere; }
.md .link { text-decoration: underline dotted; }
.md .md-img { color: var(--muted); }
.md hr { border: 0; border-top: 1px solid var(--border); }
.md .table { overflow-x: auto; }
.md table { border-collapse: collapse; margin: .5rem 0; }
.md th, .md td { border: 1px solid var(--border); padding: .25rem .5rem; vertical-align: top; }
.md .al-c { text-align: center; } .md .al-r { text-align: right; }
.code { margin: .5rem 0; border: 1px solid var(--border); border-radius: 6px; background: var(--code-bg); overflow: hidden; }
.code-lang { font-size: .72rem; color: var(--muted); padding: .15rem .6rem; border-bottom: 1px solid var(--border); }
.code pre { margin: 0; padding: .5rem .7rem; overflow-x: auto; }
.md .code code { background: none; padding: 0; }
details > summary { cursor: pointer; color: var(--muted); font-size: .82rem; }
details.thinking { margin: .4rem 0; padding: .2rem .6rem; border-left: 3px solid var(--border); }
details.thinking .plain, details.thinking .md { color: var(--faint); font-style: italic; }
.tool { margin: .5rem 0; border: 1px solid var(--border); border-radius: 6px; background: var(--tool-bg); }
.tool-head { padding: .3rem .6rem; font-size: .85rem; display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
.tool-name { font-weight: 700; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.tool-arg { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; overflow-wrap: anywhere; }
.tool-extra { color: var(--muted); font-size: .8rem; }
.tool-body { padding: 0 .6rem .4rem; }
.tool-result { border-top: 1px dashed var(--border); padding: .3rem .6rem .4rem; }
.tool-result.error { background: var(--err-bg); }
.tool-result.error .out, .result-status.error { color: var(--err-fg); }
.result-status { font-size: .75rem; color: var(--muted); margin-bottom: .2rem; }
.tool.pending .tool-head::after { content: "no result recorded"; color: var(--faint); font-size: .75rem; }
pre.out { margin: 0; padding: .35rem .5rem; white-space: pre-wrap; overflow-wrap: anywhere; background: var(--code-bg); border-radius: 4px; max-height: none; }
pre.out.head { border-bottom-left-radius: 0; border-bottom-right-radius: 0; }
details.more > summary { padding: .1rem .5rem; }
details.more[open] > summary { margin-bottom: 0; }
pre.out.rest { border-top-left-radius: 0; border-top-right-radius: 0; }
pre.cmd { margin: 0; padding: .35rem .5rem; white-space: pre-wrap; overflow-wrap: anywhere; background: var(--code-bg); border-radius: 4px; }
.empty { color: var(--faint); font-style: italic; }
.d-add { color: var(--add-fg); background: var(--add-bg); }
.d-del { color: var(--del-fg); background: var(--del-bg); }
.d-hunk, .d-gap, .d-file { color: var(--muted); }
.trunc-note { font-size: .78rem; color: var(--warn-fg); background: var(--warn-bg); padding: .15rem .5rem; border-radius: 4px; margin-top: .25rem; }
.error-box { margin: .4rem 0; padding: .35rem .6rem; border-radius: 6px; background: var(--err-bg); color: var(--err-fg); border: 1px solid var(--err-border); white-space: pre-wrap; overflow-wrap: anywhere; }
.aborted-box { margin: .4rem 0; padding: .35rem .6rem; border-radius: 6px; background: var(--warn-bg); color: var(--warn-fg); }
.notice { background: var(--notice-bg); border-color: var(--notice-border); }
.entry.bash .exit { font-size: .78rem; color: var(--muted); margin-top: .25rem; }
.entry.bash .exit.error { color: var(--err-fg); }
.marker { margin: 0 0 .6rem; padding: 0 .9rem; font-size: .8rem; color: var(--muted); }
.marker .label { margin-left: .4rem; }
img.image { display: block; max-width: 100%; max-height: 32rem; margin: .4rem 0; border: 1px solid var(--border); border-radius: 4px; }
.image-ref { color: var(--muted); font-style: italic; }
ul.branches { list-style: none; padding: 0; margin: 0; font-size: .9rem; }
ul.branches li { padding: .35rem .6rem; border: 1px solid var(--border); border-radius: 6px; margin-bottom: .4rem; background: var(--card); }
ul.branches li.active { border-color: var(--accent); }
ul.branches .first { font-weight: 600; overflow-wrap: anywhere; }
ul.branches .info { color: var(--muted); font-size: .8rem; }
ul.branches a { color: var(--accent); }
footer { margin-top: 3rem; font-size: .78rem; color: var(--faint); text-align: center; }
@media print {
  .toolbar { display: none; }
  .entry { break-inside: avoid; }
}
`;

/** Adds the expand/collapse buttons; everything else works without it. */
export const EXPORT_SCRIPT = `(function () {
  var bar = document.getElementById("toolbar");
  if (!bar) return;
  function all(open) {
    var list = document.querySelectorAll("details");
    for (var i = 0; i < list.length; i++) list[i].open = open;
  }
  [["Expand all", true], ["Collapse all", false]].forEach(function (spec) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = spec[0];
    b.addEventListener("click", function () { all(spec[1]); });
    bar.appendChild(b);
  });
})();`;

/** The Content-Security-Policy of the page: nothing loads from outside, and only our script runs. */
export const EXPORT_CSP = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${new Bun.CryptoHasher("sha256").update(EXPORT_SCRIPT).digest("base64")}'`;
