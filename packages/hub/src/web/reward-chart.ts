/**
 * The leaderboard chart: horizontal bars of mean reward per model with a tick at the best report,
 * drawn as inline SVG (no scripts, no external assets). Rewards are scaled to the largest |value|,
 * with 1 as the floor of the scale so usual 0..1 rewards read as fractions.
 */
import { html, type SafeHtml } from "./html.ts";

/** One bar. */
export interface ChartBar {
  label: string;
  mean: number;
  best: number;
}

/** An SVG of `bars` (at most 12, in the order given). */
export function rewardChart(bars: readonly ChartBar[]): SafeHtml {
  const shown = bars.slice(0, 12);
  const labelWidth = 190;
  const plotWidth = 380;
  const rowHeight = 28;
  const height = shown.length * rowHeight + 26;
  const scale = Math.max(1, ...shown.map((b) => Math.abs(b.best)), ...shown.map((b) => Math.abs(b.mean)));
  const x = (value: number) => labelWidth + (Math.max(0, value) / scale) * plotWidth;
  const rows = shown.map((bar, i) => {
    const y = i * rowHeight + 6;
    const label = bar.label.length > 28 ? `${bar.label.slice(0, 27)}…` : bar.label;
    return html`<g><text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end" font-size="12" fill="#1d2330">${label}</text>
<rect x="${labelWidth}" y="${y}" width="${(x(bar.mean) - labelWidth).toFixed(1)}" height="18" rx="3" fill="#5b8def"><title>${bar.label}: mean ${bar.mean.toFixed(3)}</title></rect>
<line x1="${x(bar.best).toFixed(1)}" x2="${x(bar.best).toFixed(1)}" y1="${y - 2}" y2="${y + 20}" stroke="#1a7f4b" stroke-width="3"><title>best ${bar.best.toFixed(3)}</title></line>
<text x="${(x(Math.max(bar.mean, bar.best)) + 6).toFixed(1)}" y="${y + 14}" font-size="12" fill="#667085">${bar.mean.toFixed(3)}</text></g>`;
  });
  const axisY = shown.length * rowHeight + 8;
  return html`<svg role="img" aria-label="Mean reward by model" width="100%" viewBox="0 0 ${labelWidth + plotWidth + 60} ${height}" xmlns="http://www.w3.org/2000/svg">
${rows}<line x1="${labelWidth}" x2="${labelWidth + plotWidth}" y1="${axisY}" y2="${axisY}" stroke="#cdd2db"/>
<text x="${labelWidth}" y="${axisY + 14}" font-size="11" fill="#667085">0</text>
<text x="${labelWidth + plotWidth}" y="${axisY + 14}" font-size="11" fill="#667085" text-anchor="end">${scale.toFixed(scale === 1 ? 0 : 2)}</text>
</svg>`;
}
