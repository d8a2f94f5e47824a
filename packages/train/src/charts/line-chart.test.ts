import { describe, expect, it } from "vitest";
import type { MetricsRow } from "../metrics/metrics-file.ts";
import { rewardCurveSvg } from "../metrics/reward-curve.ts";
import { lossCurveSvg } from "../supervised/loss-curve.ts";
import { lineChartSvg } from "./line-chart.ts";

const frame = (svg: string): string => svg.split("\n")[0]!;
const texts = (svg: string): string[] => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

describe("a line chart", () => {
  const svg = lineChartSvg({
    title: 'run <a & "b">',
    yLabel: "reward",
    x: { min: 0, max: 10 },
    y: { min: 0, max: 1 },
    series: [
      {
        type: "band",
        upper: [
          { step: 0, value: 0.6 },
          { step: 10, value: 0.9 },
        ],
        lower: [
          { step: 0, value: 0.2 },
          { step: 10, value: 0.5 },
        ],
        colour: "#111111",
      },
      {
        type: "line",
        points: [
          { step: 0, value: 0.4 },
          { step: 10, value: 0.7 },
        ],
        colour: "#222222",
        dash: "4 3",
        label: "train",
      },
      {
        type: "dots",
        points: [{ step: 5, value: 0.5, low: 0.4, high: 0.6, tooltip: "eval @ 5" }],
        colour: "#333333",
        label: "eval",
      },
    ],
  });

  it("draws each series where its values fall, with round ticks and a legend", () => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.split("\n")[1]).toBe("<title>run &lt;a &amp; &quot;b&quot;&gt;: reward</title>"); // named for screen readers, escaped
    // the band is closed: upper curve left to right, lower curve back
    expect(svg).toContain('<path d="M64.0,172.0 L610.0,73.0 L610.0,205.0 L64.0,304.0 Z" fill="#111111"');
    expect(svg).toContain('stroke="#222222" stroke-width="1.5" stroke-dasharray="4 3"');
    expect(svg).toContain('<line x1="337.0" x2="337.0" y1="238.0" y2="172.0" stroke="#333333"/>');
    expect(svg).toContain(
      '<circle cx="337.0" cy="205.0" r="3" fill="#333333"><title>eval @ 5</title></circle>',
    );
    expect(texts(svg)).toEqual(
      expect.arrayContaining([
        "0",
        "0.2",
        "0.4",
        "0.6",
        "0.8",
        "1",
        "2",
        "4",
        "6",
        "8",
        "10",
        "step",
        "reward",
      ]),
    );
    expect(texts(svg)).toEqual(expect.arrayContaining(["train", "eval"]));
  });

  it("escapes text, and says when there is nothing to draw", () => {
    expect(texts(svg)).toContain("run &lt;a &amp; &quot;b&quot;&gt;");
    const empty = lineChartSvg({
      title: "t",
      yLabel: "loss",
      x: { min: 0, max: 1 },
      y: { min: 0, max: 1 },
      series: [],
      empty: "no steps yet",
    });
    expect(texts(empty)).toContain("no steps yet");
    expect(empty).not.toContain("<path");
  });
});

describe("the loss curve of vf sft and the reward curve of vf train", () => {
  it("are drawn by the same chart: one frame, step on x, their quantity on y", () => {
    const loss = lossCurveSvg({
      title: "sft",
      train: [
        { step: 1, loss: 2 },
        { step: 2, loss: 1.5 },
      ],
      eval: [{ step: 2, loss: 1.7 }],
    });
    const rows: MetricsRow[] = [
      {
        kind: "eval",
        step: 0,
        time: 0,
        env: "reverse-text",
        reward_mean: 0.5,
        reward_std: 0.1,
        ci95_low: 0.45,
        ci95_high: 0.55,
        rollouts: 8,
        time_ms: 10,
      },
    ];
    const reward = rewardCurveSvg(rows, "rl");
    expect(frame(loss)).toBe(frame(reward));
    expect(texts(loss)).toEqual(expect.arrayContaining(["step", "loss", "train (moving avg)", "eval"]));
    expect(texts(reward)).toEqual(expect.arrayContaining(["step", "reward", "eval reverse-text (95% CI)"]));
    expect(reward).toContain("<title>reverse-text @ step 0: 0.500 [0.450, 0.550]</title>");
  });
});
