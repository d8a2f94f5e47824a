/**
 * The frame of every `vf view --web` page: one inline stylesheet (the shared rollout styles with the
 * viewer's own), a header naming the served folder, and at most a few lines of script. Nothing is
 * fetched from the network.
 */
import { html, ROLLOUT_STYLE, SafeHtml } from "@vf-rl/hub/rollout-html";

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;background:#f6f7f9}
a{color:#2456c7;text-decoration:none}a:hover{text-decoration:underline}
header{background:#1d2330;color:#fff;padding:8px 20px;display:flex;gap:14px;align-items:baseline}header a{color:#fff;font-weight:600}
header .dir{color:#aab3c5;font:12px ui-monospace,monospace}
main{max-width:1280px;margin:18px auto;padding:0 20px}
.card{background:#fff;border:1px solid #e1e4ea;border-radius:10px;padding:14px 18px;margin:0 0 14px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0 0 10px}.muted{color:#667085}.small{font-size:12px}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #eef0f3;vertical-align:top}
th{font-size:12px;color:#667085;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font:12.5px/1.45 ui-monospace,Menlo,Consolas,monospace}
pre{background:#f3f4f7;padding:8px 10px;border-radius:6px;overflow:auto;white-space:pre-wrap;word-break:break-word;max-height:480px}
.tag{display:inline-block;background:#eef2fb;color:#2456c7;border-radius:10px;padding:0 8px;font-size:12px;margin-right:4px}
.badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;background:#fde7e7;color:#a12a2a}
.better:not(tr){color:#1a7f4b;font-weight:600}.worse:not(tr){color:#a12a2a;font-weight:600}
.side{display:grid;grid-template-columns:1fr 1fr;gap:14px}.side>*{min-width:0}
form.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center}form.filters label{font-size:13px}
input,select{font:inherit;padding:4px 7px;border:1px solid #cdd2db;border-radius:6px}input[type=number]{width:90px}
button{background:#2456c7;color:#fff;border:0;border-radius:6px;padding:5px 12px;font:inherit;cursor:pointer}button:disabled{background:#aab3c5;cursor:default}
details{padding:4px 0}summary{cursor:pointer}.nowrap{white-space:nowrap}
nav.steps{display:flex;gap:14px;margin:0 0 10px}
`;

/** A whole page: `title` in the tab, `body` in the main column, `script` (ours, never user text) at the end. */
export function pageFrame(options: { title: string; dir: string; body: SafeHtml; script?: string }): string {
  const script = options.script ? html`<script>${new SafeHtml(options.script)}</script>` : "";
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${options.title} · vf view</title><style>${new SafeHtml(STYLE + ROLLOUT_STYLE)}</style></head>
<body><header><a href="/">vf view</a><span class="dir">${options.dir}</span></header>
<main>${options.body}</main>${script}</body></html>`.value;
}

/** The link to a run's page, and to one of its rollouts. */
export function runHref(key: string, params: Record<string, string> = {}): string {
  return `/run?${new URLSearchParams({ run: key, ...params })}`;
}

/** `filter`: the run page's filter (its query parameters), kept so previous and next step through it. */
export function rolloutHref(key: string, index: number, filter: Record<string, string> = {}): string {
  return `/rollout?${new URLSearchParams({ run: key, i: String(index), ...filter })}`;
}
