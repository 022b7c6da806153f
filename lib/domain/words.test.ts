import { describe, expect, it } from "vitest";
import { article, counted } from "./words";

describe("counted", () => {
  it("puts the noun in the number of its count", () => {
    expect(counted(0, "unit")).toBe("0 units");
    expect(counted(1, "unit")).toBe("1 unit");
    expect(counted(2, "unit")).toBe("2 units");
    expect(counted(1, "copy", "copies")).toBe("1 copy");
    expect(counted(3, "copy", "copies")).toBe("3 copies");
    expect(counted(12500, "event")).toBe("12,500 events");
  });
});

describe("article", () => {
  it("says an before a vowel sound and a before a consonant or a 'you' sound", () => {
    expect(`${article("ingestion")} ingestion request`).toBe("an ingestion request");
    expect(article("operator")).toBe("an");
    expect(article("repair")).toBe("a");
    expect(article("unit")).toBe("a");
    expect(article("user")).toBe("a");
    expect(article("hourly")).toBe("an");
  });
});
