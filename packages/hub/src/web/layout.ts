/** The frame of every Hub page: one inline stylesheet, a header with search and account links. */
import type { Principal } from "../server/hub-context.ts";
import { html, SafeHtml } from "./html.ts";
import { ROLLOUT_STYLE } from "./rollout/rollout-style.ts";

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;background:#f6f7f9}
a{color:#2456c7;text-decoration:none}a:hover{text-decoration:underline}
header{background:#1d2330;color:#fff;padding:10px 24px;display:flex;gap:16px;align-items:center}
header a{color:#fff;font-weight:600}header form{flex:1;display:flex}header input{flex:1;max-width:420px;padding:6px 10px;border-radius:6px;border:0}
header .who{margin-left:auto;display:flex;gap:12px;align-items:center}
main{max-width:1040px;margin:24px auto;padding:0 24px}
.card{background:#fff;border:1px solid #e1e4ea;border-radius:10px;padding:16px 20px;margin:0 0 16px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:0 0 12px}.muted{color:#667085}.small{font-size:13px}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #eef0f3;vertical-align:top}
th{font-size:13px;color:#667085;font-weight:600}code,pre{font:13px/1.45 ui-monospace,Menlo,Consolas,monospace}
pre{background:#f3f4f7;padding:10px 12px;border-radius:6px;overflow:auto;white-space:pre-wrap;word-break:break-word}
.tag{display:inline-block;background:#eef2fb;color:#2456c7;border-radius:10px;padding:0 8px;font-size:12px;margin-right:4px}
.badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;background:#fde7e7;color:#a12a2a}
.badge.taskset{background:#e6f4ec;color:#1a7f4b}
.grid{display:grid;grid-template-columns:2fr 1fr;gap:16px}@media(max-width:800px){.grid{grid-template-columns:1fr}}
button,.button{background:#2456c7;color:#fff;border:0;border-radius:6px;padding:6px 14px;font:inherit;cursor:pointer}
button.secondary{background:#e1e4ea;color:#1d2330}input,select{font:inherit;padding:5px 8px;border:1px solid #cdd2db;border-radius:6px}
details{border-bottom:1px solid #eef0f3;padding:6px 0}summary{cursor:pointer}
.notice{background:#fff7e0;border:1px solid #f1d48a;border-radius:8px;padding:10px 14px;margin-bottom:16px}
.secret{font:15px ui-monospace,monospace;background:#10131a;color:#9ef0b5;padding:10px 12px;border-radius:6px;word-break:break-all}
.readme img{max-width:100%}.nowrap{white-space:nowrap}`;

/** A whole page around `body`. */
export function layout(options: {
  title: string;
  viewer: Principal | null;
  body: SafeHtml;
  query?: string;
}): string {
  const { title, viewer, body } = options;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · vf Hub</title><style>${new SafeHtml(STYLE + ROLLOUT_STYLE)}</style></head>
<body><header><a href="/">vf Hub</a>
<form action="/" method="get"><input type="search" name="q" placeholder="Search environments" value="${options.query ?? ""}" aria-label="Search"></form>
<span class="who">${
    viewer ? html`<a href="/account">${viewer.userName}</a>` : html`<a href="/login">Sign in</a>`
  }</span></header>
<main>${body}</main></body></html>`.value;
}
