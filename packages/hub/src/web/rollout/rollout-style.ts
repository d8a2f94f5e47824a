/**
 * The stylesheet of a rendered rollout (rollout-html.ts), included by each page frame that shows one:
 * the Hub's layout and `vf view --web`'s. Class names are the renderer's; the frames style the rest.
 */
export const ROLLOUT_STYLE = `
.msg{border-left:3px solid #cdd2db;padding:4px 10px;margin:6px 0}.msg.user{border-color:#2456c7}.msg.assistant{border-color:#1a7f4b}.msg.tool{border-color:#b26b00}.msg.system{border-color:#8a6fd1}
.msg .role{font-size:12px;font-weight:600;text-transform:uppercase;color:#667085}
.msg pre{margin:4px 0}.tool-call{margin:4px 0}.tool-call pre{background:#fff8ec}
.rollout h3{font-size:14px;color:#667085;margin:14px 0 6px}
.rollout .reward strong{font-size:18px}
table.metrics{width:auto;min-width:260px}table.metrics th{font-weight:500;color:#1d2330}
table.calls tr.failed td{background:#fdf0f0}
.errors{background:#fdf0f0;border:1px solid #f3c4c4;border-radius:8px;padding:4px 14px;margin:10px 0}.errors h3{color:#a12a2a}
details.branch{border:1px solid #e1e4ea;border-radius:8px;padding:6px 10px;margin:8px 0;background:#fff}
details.shared{border:0;background:#f8f9fb;padding:2px 8px}
details.tools .tool{margin:2px 0 2px 12px}
.heatmap{margin:8px 0}.tokens{font:13px/1.9 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-all}
.swatch{display:inline-block;width:14px;height:10px;border:1px solid #e1e4ea;vertical-align:middle}
.tok{border-radius:2px;padding:0 1px;margin:0 1px 0 0;box-shadow:inset 0 0 0 1px #eceef2}.tokens.ids .swatch{display:inline-block;width:14px;height:10px;border:1px solid #e1e4ea;vertical-align:middle}
.tok{font-size:11px}
`;
