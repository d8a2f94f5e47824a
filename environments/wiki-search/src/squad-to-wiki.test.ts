import { describe, expect, it } from "vitest";
import { pageIdOf, type SquadFile, squadToWiki } from "./squad-to-wiki.ts";

function article(title: string, contexts: string[]): SquadFile["data"][number] {
  return {
    title,
    paragraphs: contexts.map((context, p) => ({
      context,
      qas: [
        {
          id: `${title}-${p}`,
          question: ` What is in paragraph ${p}? `,
          answers: [
            { text: context.split(" ")[0]!, answer_start: 0 },
            { text: context.split(" ")[0]!, answer_start: 0 },
            { text: context, answer_start: 0 },
          ],
        },
      ],
    })),
  };
}

const kenya = article("Kenya", ["Nairobi is the capital.", "Mount Kenya is high."]);
const fresno = article("Fresno,_California", ["Fresno is a city."]);
const victoria = article("Victoria_(Australia)", ["Victoria is a state."]);

describe("squadToWiki", () => {
  it("makes pages of articles, sections of paragraphs and rows of questions with their distinct answers", () => {
    const { pages, questions } = squadToWiki([{ version: "1.1", data: [kenya, victoria] }]);
    expect(pages).toEqual([
      { id: "kenya", title: "Kenya", sections: ["Nairobi is the capital.", "Mount Kenya is high."] },
      { id: "victoria_australia", title: "Victoria (Australia)", sections: ["Victoria is a state."] },
    ]);
    expect(questions[1]).toEqual({
      id: "Kenya-1",
      question: "What is in paragraph 1?",
      answers: ["Mount", "Mount Kenya is high."],
      page_id: "kenya",
      section_id: "kenya#2",
      split: "eval",
    });
    expect(questions[2]!.split).toBe("train");
  });

  it("builds the same data from the whole file as from its halves, in any article order", () => {
    const whole = squadToWiki([{ version: "1.1", data: [victoria, kenya, fresno] }]);
    const halves = squadToWiki([
      { version: "1.1", data: [fresno, kenya] },
      { version: "1.1", data: [victoria] },
    ]);
    expect(JSON.stringify(halves)).toBe(JSON.stringify(whole));
  });

  it("refuses an article given twice", () => {
    expect(() =>
      squadToWiki([
        { version: "1.1", data: [kenya] },
        { version: "1.1", data: [kenya] },
      ]),
    ).toThrow('article "Kenya" appears twice: give each SQuAD file once');
  });

  it("slugs titles into page ids", () => {
    expect(pageIdOf("Fresno,_California")).toBe("fresno_california");
    expect(pageIdOf("1973_oil_crisis")).toBe("1973_oil_crisis");
    expect(pageIdOf("Sky (United Kingdom)")).toBe("sky_united_kingdom");
  });
});
