import { describe, expect, it } from "vitest";
import { MalformedInputError } from "./errors";
import { checkJsonLimits, parseJsonInput } from "./json-limits";

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof MalformedInputError ? { field: e.field, message: e.message, details: e.details } : e;
  }
  return "not refused";
};

describe("a JSON body's limits and parse", () => {
  it("reads a JSON value, and refuses empty or malformed text naming the body", () => {
    expect(parseJsonInput(' {"a": [1, 2]} ')).toEqual({ a: [1, 2] });
    expect(refusal(() => parseJsonInput("  \n"))).toEqual({ field: "body", message: "body: a JSON body is required", details: undefined });
    expect(refusal(() => parseJsonInput("{nope"))).toMatchObject({ field: "body", message: expect.stringMatching(/^body: malformed JSON \(/) });
  });

  it("refuses nesting past its depth and arrays past their length, with the issue listed", () => {
    // [[1]] nests two levels; a string's brackets are not nesting.
    expect(refusal(() => checkJsonLimits('[[1], "[[[["]', "body", 2))).toBe("not refused");
    expect(refusal(() => checkJsonLimits("[[[1]]]", "body", 2))).toEqual({
      field: "body",
      message: "body: nested deeper than 2 levels",
      details: { issues: [{ path: "body", message: "nested deeper than 2 levels" }] },
    });
    expect(refusal(() => checkJsonLimits("[1,2,3,4]", "body", 256, 3))).toEqual({
      field: "body",
      message: "body: an array longer than 3 elements",
      details: { issues: [{ path: "body", message: "an array longer than 3 elements" }] },
    });
    expect(refusal(() => checkJsonLimits("[1,2,3]", "body", 256, 3))).toBe("not refused");
  });
});
