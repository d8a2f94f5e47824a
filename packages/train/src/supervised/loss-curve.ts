/**
 * The loss curve of a supervised run (`loss-curve.svg`): the training loss of every step (faint)
 * and its moving average, the eval loss as dots joined by a line. Drawn by the chart module that
 * also draws `vf train`'s reward curve.
 */
import { lineChartSvg, niceCeil } from "../charts/line-chart.ts";

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

/** The SVG document of a loss curve. */
export function lossCurveSvg(input: LossCurveInput): string {
  const all = [...input.train, ...input.eval].filter((p) => Number.isFinite(p.loss));
  const maxStep = Math.max(1, ...all.map((p) => p.step));
  const minStep = Math.min(maxStep - 1, ...all.map((p) => p.step));
  const losses = all.map((p) => p.loss);
  const top = niceCeil(Math.max(1e-6, ...losses));
  const bottom = Math.max(0, Math.min(...losses, top) - 0.05 * top);
  const points = (loss: readonly LossPoint[]) => loss.map((p) => ({ step: p.step, value: p.loss }));
  return lineChartSvg({
    title: input.title,
    yLabel: "loss",
    x: { min: minStep, max: maxStep },
    y: { min: bottom, max: top },
    series: [
      { type: "line", points: points(input.train), colour: "#93c5fd", width: 1 },
      {
        type: "line",
        points: points(movingAverage(input.train)),
        colour: "#1d4ed8",
        width: 2,
        label: "train (moving avg)",
      },
      { type: "line", points: points(input.eval), colour: "#dc2626" },
      { type: "dots", points: points(input.eval), colour: "#dc2626", label: "eval" },
    ],
    empty: "no steps yet",
  });
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
