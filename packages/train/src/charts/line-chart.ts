/**
 * Line charts over training steps as self-contained SVG documents (no script, no external font or
 * style): the one drawing code of the reward curve of `vf train` and the loss curve of `vf sft`.
 * A chart is a frame (title, axes with round ticks, grid, a legend on the right) and a list of
 * series, each a discriminated union member: a line, a filled band, or dots with error bars.
 */

/** A point of a series: the step on x, the value on y. */
export interface ChartPoint {
  step: number;
  value: number;
}

/** A line through points, in order. */
export interface LineSeries {
  type: "line";
  points: readonly ChartPoint[];
  colour: string;
  /** Stroke width (default 1.5). */
  width?: number;
  /** SVG dash pattern, e.g. "4 3" (default solid). */
  dash?: string;
  /** Legend entry; none when omitted. */
  label?: string;
}

/** A filled area between two curves over the same steps (a ±1 std band). */
export interface BandSeries {
  type: "band";
  upper: readonly ChartPoint[];
  lower: readonly ChartPoint[];
  colour: string;
  /** Fill opacity (default 0.15). */
  opacity?: number;
}

/** Dots, each with an optional vertical interval and a tooltip. */
export interface DotSeries {
  type: "dots";
  points: readonly (ChartPoint & { low?: number; high?: number; tooltip?: string })[];
  colour: string;
  /** Radius (default 3). */
  radius?: number;
  label?: string;
}

export type ChartSeries = LineSeries | BandSeries | DotSeries;

/** What to draw. */
export interface LineChart {
  title: string;
  /** The quantity on y ("reward", "loss"). */
  yLabel: string;
  /** The steps on x, from `min` to `max`. */
  x: { min: number; max: number };
  /** The values on y, from `min` to `max`; ticks fall on round numbers in between. */
  y: { min: number; max: number };
  /** Drawn in order: later series on top. */
  series: readonly ChartSeries[];
  /** Shown in the middle when there is nothing to draw (default "no data yet"). */
  empty?: string;
}

const W = 820;
const H = 420;
const PAD = { left: 64, right: 210, top: 40, bottom: 50 };

/**
 * The SVG document of a chart.
 *
 * @example
 * lineChartSvg({ title: "run", yLabel: "loss", x: { min: 0, max: 10 }, y: { min: 0, max: 3 },
 *   series: [{ type: "line", points: [{ step: 1, value: 2.5 }, { step: 10, value: 1.2 }], colour: "#1d4ed8", label: "train" }] });
 */
export function lineChartSvg(chart: LineChart): string {
  const xSpan = chart.x.max - chart.x.min || 1;
  const ySpan = chart.y.max - chart.y.min || 1;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (step: number): number => PAD.left + ((step - chart.x.min) / xSpan) * plotW;
  const y = (value: number): number => PAD.top + (1 - (value - chart.y.min) / ySpan) * plotH;
  const path = (points: readonly ChartPoint[]): string =>
    points.map((p, i) => `${i === 0 ? "M" : "L"}${n(x(p.step))},${n(y(p.value))}`).join(" ");

  const parts: string[] = [];
  for (const value of roundTicks(chart.y.min, chart.y.max, 5)) {
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${n(y(value))}" y2="${n(y(value))}" stroke="#e5e7eb"/>`,
      `<text x="${PAD.left - 8}" y="${n(y(value) + 4)}" text-anchor="end">${Number(value.toPrecision(3))}</text>`,
    );
  }
  for (const step of roundTicks(chart.x.min, chart.x.max, 6).filter(Number.isInteger)) {
    parts.push(
      `<line x1="${n(x(step))}" x2="${n(x(step))}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom + 5}" stroke="#6b7280"/>`,
      `<text x="${n(x(step))}" y="${H - PAD.bottom + 20}" text-anchor="middle">${step}</text>`,
    );
  }
  parts.push(
    `<rect x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#6b7280"/>`,
    `<text x="${PAD.left + plotW / 2}" y="${H - 10}" text-anchor="middle">step</text>`,
    `<text x="16" y="${PAD.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 16 ${PAD.top + plotH / 2})">${escapeXml(chart.yLabel)}</text>`,
    `<text x="${PAD.left}" y="24" font-size="15" font-weight="bold">${escapeXml(chart.title)}</text>`,
  );
  const legend: { colour: string; dash?: string; dot: boolean; label: string }[] = [];
  for (const s of chart.series) {
    switch (s.type) {
      case "band":
        if (s.upper.length === 0) break;
        parts.push(
          `<path d="${path([...s.upper, ...[...s.lower].reverse()])} Z" fill="${s.colour}" fill-opacity="${s.opacity ?? 0.15}" stroke="none"/>`,
        );
        break;
      case "line":
        if (s.points.length === 0) break;
        parts.push(
          `<path d="${path(s.points)}" fill="none" stroke="${s.colour}" stroke-width="${s.width ?? 1.5}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/>`,
        );
        if (s.label !== undefined)
          legend.push({ colour: s.colour, ...(s.dash ? { dash: s.dash } : {}), dot: false, label: s.label });
        break;
      case "dots":
        if (s.points.length === 0) break;
        for (const p of s.points) {
          if (p.low !== undefined && p.high !== undefined) {
            parts.push(
              `<line x1="${n(x(p.step))}" x2="${n(x(p.step))}" y1="${n(y(p.low))}" y2="${n(y(p.high))}" stroke="${s.colour}"/>`,
            );
          }
          const tooltip = p.tooltip === undefined ? "" : `<title>${escapeXml(p.tooltip)}</title>`;
          parts.push(
            `<circle cx="${n(x(p.step))}" cy="${n(y(p.value))}" r="${s.radius ?? 3}" fill="${s.colour}">${tooltip}</circle>`,
          );
        }
        if (s.label !== undefined) legend.push({ colour: s.colour, dot: true, label: s.label });
        break;
    }
  }
  legend.forEach((entry, i) => {
    const ly = PAD.top + 10 + i * 20;
    const lx = W - PAD.right + 12;
    parts.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${entry.colour}" stroke-width="2"${entry.dash ? ` stroke-dasharray="${entry.dash}"` : ""}/>`,
      ...(entry.dot ? [`<circle cx="${lx + 12}" cy="${ly}" r="3" fill="${entry.colour}"/>`] : []),
      `<text x="${lx + 30}" y="${ly + 4}">${escapeXml(entry.label)}</text>`,
    );
  });
  const drawn = chart.series.some((s) => (s.type === "band" ? s.upper.length : s.points.length) > 0);
  if (!drawn) {
    parts.push(
      `<text x="${PAD.left + plotW / 2}" y="${PAD.top + plotH / 2}" text-anchor="middle">${escapeXml(chart.empty ?? "no data yet")}</text>`,
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12" fill="#111827">`,
    // the chart's name for screen readers and as the tooltip of an image that shows it
    `<title>${escapeXml(chart.title)}: ${escapeXml(chart.yLabel)}</title>`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    ...parts,
    "</svg>",
    "",
  ].join("\n");
}

/** The smallest round number (1, 2 or 5 times a power of ten) at or above `value` (> 0). */
export function niceCeil(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((v) => v >= value) ?? value;
}

/** Text for SVG and HTML: the characters that would end a tag or an attribute, escaped. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!);
}

/** About `count` round values (1, 2 or 5 times a power of ten apart) from `lo` to `hi`. */
function roundTicks(lo: number, hi: number, count: number): number[] {
  const span = hi - lo || 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const values: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    values.push(Number(v.toPrecision(12)));
  return values;
}

/** A coordinate with one decimal, which is all a screen shows. */
function n(value: number): string {
  return value.toFixed(1);
}
