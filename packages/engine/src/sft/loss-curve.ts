/**
 * A loss curve as a self-contained SVG file (no script, no external font or style): the training
 * loss of every step (faint) and its moving average, the eval loss as dots joined by a line, with
 * axes, ticks and a legend. Opens in any browser or image viewer.
 */

/** One measured point. */
export interface LossPoint {
  step: number;
  loss: number;
}

/** What to draw. */
export interface LossCurveInput {
  title: string;
  train: readonly LossPoint[];
  eval: readonly LossPoint[];
}

const WIDTH = 720;
const HEIGHT = 420;
const PAD = { left: 64, right: 24, top: 40, bottom: 48 };

/** The SVG document of a loss curve. */
export function lossCurveSvg(input: LossCurveInput): string {
  const all = [...input.train, ...input.eval].filter((p) => Number.isFinite(p.loss));
  const maxStep = Math.max(1, ...all.map((p) => p.step));
  const minStep = Math.min(maxStep - 1, ...all.map((p) => p.step));
  const losses = all.map((p) => p.loss);
  const top = niceCeil(Math.max(1e-6, ...losses));
  const bottom = Math.max(0, Math.min(...losses, top) - 0.05 * top);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (step: number): number => PAD.left + ((step - minStep) / (maxStep - minStep)) * plotW;
  const y = (loss: number): number => PAD.top + (1 - (loss - bottom) / (top - bottom)) * plotH;
  const path = (points: readonly LossPoint[]): string =>
    points.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.step).toFixed(1)},${y(p.loss).toFixed(1)}`).join(" ");

  const parts: string[] = [];
  for (const value of ticks(bottom, top, 5)) {
    parts.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#e5e7eb"/>`,
      `<text x="${PAD.left - 8}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${format(value)}</text>`,
    );
  }
  for (const step of ticks(minStep, maxStep, 6).filter((s) => Number.isInteger(s))) {
    parts.push(
      `<line x1="${x(step).toFixed(1)}" x2="${x(step).toFixed(1)}" y1="${HEIGHT - PAD.bottom}" y2="${HEIGHT - PAD.bottom + 5}" stroke="#6b7280"/>`,
      `<text x="${x(step).toFixed(1)}" y="${HEIGHT - PAD.bottom + 20}" text-anchor="middle">${step}</text>`,
    );
  }
  parts.push(
    `<rect x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#6b7280"/>`,
    `<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 10}" text-anchor="middle">step</text>`,
    `<text x="16" y="${PAD.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 16 ${PAD.top + plotH / 2})">loss</text>`,
    `<text x="${PAD.left}" y="24" font-size="15" font-weight="bold">${escapeXml(input.title)}</text>`,
  );
  if (input.train.length > 0) {
    parts.push(`<path d="${path(input.train)}" fill="none" stroke="#93c5fd" stroke-width="1"/>`);
    parts.push(
      `<path d="${path(movingAverage(input.train))}" fill="none" stroke="#1d4ed8" stroke-width="2"/>`,
    );
  }
  if (input.eval.length > 0) {
    parts.push(`<path d="${path(input.eval)}" fill="none" stroke="#dc2626" stroke-width="1.5"/>`);
    for (const p of input.eval) {
      parts.push(`<circle cx="${x(p.step).toFixed(1)}" cy="${y(p.loss).toFixed(1)}" r="3" fill="#dc2626"/>`);
    }
  }
  const legendX = WIDTH - PAD.right - 190;
  parts.push(
    `<line x1="${legendX}" x2="${legendX + 20}" y1="20" y2="20" stroke="#1d4ed8" stroke-width="2"/>`,
    `<text x="${legendX + 26}" y="24">train (moving avg)</text>`,
    `<circle cx="${legendX + 140}" cy="20" r="3" fill="#dc2626"/>`,
    `<text x="${legendX + 148}" y="24">eval</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12" fill="#111827">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    ...parts,
    "</svg>",
    "",
  ].join("\n");
}

/** The average over a window of about a twentieth of the points, so noise does not hide the trend. */
function movingAverage(points: readonly LossPoint[]): LossPoint[] {
  const window = Math.max(1, Math.round(points.length / 20));
  let sum = 0;
  return points.map((p, i) => {
    sum += p.loss;
    if (i >= window) sum -= points[i - window]!.loss;
    return { step: p.step, loss: sum / Math.min(i + 1, window) };
  });
}

/** About `count` round values from `lo` to `hi`. */
function ticks(lo: number, hi: number, count: number): number[] {
  const span = hi - lo || 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const values: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    values.push(Number(v.toPrecision(12)));
  return values;
}

/** The smallest round number (1, 2 or 5 times a power of ten) at or above `value`. */
function niceCeil(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].map((m) => m * magnitude).find((v) => v >= value) ?? value) as number;
}

function format(value: number): string {
  return Number(value.toPrecision(3)).toString();
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!);
}
