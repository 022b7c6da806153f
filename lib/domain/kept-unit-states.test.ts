import { describe, expect, it } from "vitest";
import {
  decodeKeptDataset,
  decodeKeptHeader,
  encodeKeptDataset,
  encodeKeptHeader,
  KeptStatesRefused,
  type KeptDatasetStates,
  type KeptHeader,
} from "./kept-unit-states";
import type { UnitStateFacts, UnitStateResult } from "./unit-state";

const VOCABULARY = "a1b2c3d4e5f6";
const facts = (over: Partial<UnitStateFacts> = {}): UnitStateFacts => ({
  publishCount: 0,
  ageMs: null,
  lastRunId: null,
  inputVersion: null,
  codeVersion: null,
  attempts: 0,
  partialRows: null,
  sourceCount: null,
  deviation: null,
  running: false,
  ...over,
});
const failed: UnitStateResult = { state: "failed", reasons: ["the run failed"], facts: facts({ lastRunId: "run-7", attempts: 1 }) };
const duplicate: UnitStateResult = {
  state: "duplicate",
  reasons: ["published twice", "the run failed"],
  facts: facts({
    publishCount: 2,
    ageMs: 3_600_000,
    lastRunId: "run-7",
    inputVersion: "v1",
    codeVersion: "c9",
    partialRows: 12,
    sourceCount: 40,
    deviation: 0.5,
    running: true,
  }),
};
const header: KeptHeader = {
  catalog: "cat-1",
  ledger: "led-1",
  seq: 41,
  above: [43, 44],
  hour: 493_000,
  resolvedAt: 1_774_800_000_000,
  datasetIds: ["ds-b", "ds-a"],
};
const dataset: KeptDatasetStates = {
  codes: Uint8Array.of(13, 13, 2, 255, 6),
  problems: new Map([
    [2, failed],
    [4, duplicate],
  ]),
  invalidLedgerKeys: [{ key: "2026-13-01", reason: "not a day" }],
  prevailing: "v1",
};

describe("the kept unit states' text", () => {
  it("reads back a header as it was kept", () => {
    expect(decodeKeptHeader(encodeKeptHeader(header, VOCABULARY), VOCABULARY)).toEqual(header);
    expect(decodeKeptHeader(encodeKeptHeader({ ...header, ledger: null, above: [] }, VOCABULARY), VOCABULARY)).toEqual({ ...header, ledger: null, above: [] });
  });

  it("reads back a dataset's codes, problems, invalid keys and prevailing version", () => {
    expect(decodeKeptDataset(encodeKeptDataset(dataset))).toEqual(dataset);
    const healthy = { codes: new Uint8Array(0), problems: new Map(), invalidLedgerKeys: [], prevailing: null };
    expect(decodeKeptDataset(encodeKeptDataset(healthy))).toEqual(healthy);
  });

  // The format kept in the database: a console of this version must read what an earlier one wrote.
  it("writes the problem units as rows over one string table", () => {
    expect(JSON.parse(encodeKeptDataset({ ...dataset, problems: new Map([[2, failed]]) }))).toEqual({
      codes: "DQ0C/wY=",
      strings: ["failed", "the run failed", "run-7"],
      problems: [[2, 0, [1], 0, null, 2, null, null, 1, null, null, null, false]],
      invalid: [{ key: "2026-13-01", reason: "not a day" }],
      prevailing: "v1",
    });
    expect(JSON.parse(encodeKeptHeader(header, VOCABULARY))).toEqual({
      version: 5,
      vocabulary: VOCABULARY,
      fields: "publishCount,ageMs,lastRunId,inputVersion,codeVersion,attempts,partialRows,sourceCount,deviation,running",
      catalog: "cat-1",
      ledger: "led-1",
      seq: 41,
      above: [43, 44],
      hour: 493_000,
      resolvedAt: 1_774_800_000_000,
      datasets: ["ds-b", "ds-a"],
    });
  });

  it("takes a header of another version, vocabulary or fact list as foreign: null, to be computed again", () => {
    const kept = JSON.parse(encodeKeptHeader(header, VOCABULARY)) as Record<string, unknown>;
    expect(decodeKeptHeader(encodeKeptHeader(header, VOCABULARY), "0123456789ab")).toBeNull();
    expect(decodeKeptHeader(JSON.stringify({ ...kept, version: 4 }), VOCABULARY)).toBeNull();
    expect(decodeKeptHeader(JSON.stringify({ ...kept, fields: "publishCount,ageMs" }), VOCABULARY)).toBeNull();
    expect(decodeKeptHeader(JSON.stringify({ v: 1 }), VOCABULARY)).toBeNull();
  });

  it("refuses a header that claims the format but is not well formed", () => {
    const kept = JSON.parse(encodeKeptHeader(header, VOCABULARY)) as Record<string, unknown>;
    for (const body of [
      "{",
      "[]",
      "null",
      JSON.stringify({ ...kept, seq: "41" }),
      JSON.stringify({ ...kept, above: [43, null] }),
      JSON.stringify({ ...kept, datasets: "ds-a" }),
      JSON.stringify({ ...kept, catalog: 7 }),
    ]) {
      expect(() => decodeKeptHeader(body, VOCABULARY), body).toThrow(KeptStatesRefused);
    }
  });

  it("refuses a dataset whose text is not well formed", () => {
    const kept = JSON.parse(encodeKeptDataset(dataset)) as { problems: unknown[][] } & Record<string, unknown>;
    const row = kept.problems[0]!;
    const withRow = (r: unknown) => JSON.stringify({ ...kept, problems: [r] });
    for (const [why, body] of [
      ["not JSON", "codes"],
      ["codes not base64", JSON.stringify({ ...kept, codes: "DQ0C/w" })],
      ["a string index out of the table", withRow([2, 99, [1], ...row.slice(3)])],
      ["a state outside the vocabulary", JSON.stringify({ ...kept, strings: ["exploded", ...(kept.strings as string[]).slice(1)] })],
      ["a short row", withRow(row.slice(0, 5))],
      ["a negative ordinal", withRow([-1, ...row.slice(1)])],
      ["a text fact that is not an index", withRow([...row.slice(0, 5), "run-7", ...row.slice(6)])],
      ["a count that is text", withRow([...row.slice(0, 3), "0", ...row.slice(4)])],
      ["invalid keys without a reason", JSON.stringify({ ...kept, invalid: [{ key: "x" }] })],
      ["no prevailing version field", JSON.stringify({ ...kept, prevailing: undefined })],
    ] as const) {
      expect(() => decodeKeptDataset(body), why).toThrow(KeptStatesRefused);
    }
  });
});
