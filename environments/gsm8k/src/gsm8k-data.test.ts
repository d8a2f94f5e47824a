import { describe, expect, it } from "vitest";
import { loadGsm8k, referenceSolution, solutionSteps } from "./gsm8k-data.ts";

describe("loadGsm8k", () => {
  it("ships both published splits, each row with its final number and worked solution", async () => {
    const [train, test] = await Promise.all([loadGsm8k("train"), loadGsm8k("test")]);
    expect(train.length).toBe(7473);
    expect(test.length).toBe(1319);
    const first = test.examples[0]!;
    expect(first.question).toMatch(/^Janet’s ducks lay 16 eggs per day/);
    expect(first.answer).toBe("18");
    expect(first.info.solution).toMatch(/<<9\*2=18>>18 every day.*\n#### 18$/s);
  });

  it("gives every answer as a plain number, thousands separators dropped", async () => {
    const train = await loadGsm8k("train");
    for (const example of train) expect(example.answer).toMatch(/^-?\d+(\.\d+)?$/);
    const withSeparator = train.examples.find((e) => String(e.info.solution).endsWith("#### 1,080"));
    expect(withSeparator?.answer).toBe("1080");
  });
});

describe("the reference solution", () => {
  const published = "He sprints 3*3=<<3*3=9>>9 times\nSo he runs 9*60=<<9*60=540>>540 meters\n#### 540";

  it("drops the calculator annotations and the #### line", () => {
    expect(solutionSteps(published)).toBe("He sprints 3*3=9 times\nSo he runs 9*60=540 meters");
  });

  it("ends in the boxed answer", () => {
    expect(referenceSolution(published, "540")).toBe(
      "He sprints 3*3=9 times\nSo he runs 9*60=540 meters\nThe answer is \\boxed{540}",
    );
    expect(referenceSolution("#### 7", "7")).toBe("The answer is \\boxed{7}");
  });
});
