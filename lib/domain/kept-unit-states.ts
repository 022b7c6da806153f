import { decodeBase64, encodeBase64 } from "./base64";
import { UNIT_STATE_PRECEDENCE, type UnitState, type UnitStateFacts, type UnitStateResult } from "./unit-state";

/**
 * The text the unit states are kept as in the database, so a console that restarts, or another
 * one on the same database, takes them up instead of computing them again: one header (what the
 * states were computed under, and which datasets are kept) and one body per dataset (its states).
 *
 * Kept states are only ever taken up as they were written. A header of another format version,
 * state vocabulary or list of fact fields is foreign: decoding it answers null and the states are
 * computed again, never remapped (a state's code is its index in a precedence that may have
 * moved). A text that claims this format but is not well formed is refused with an error.
 *
 * A dataset's body: its codes (a byte per unit, base64), the problem units as rows over one table
 * of the dataset's strings — a problem's state, reasons and text facts repeat across its units,
 * and written as objects with repeated keys they made a body several times the size, slow to
 * write (docs/units.md).
 *
 *   { "codes": "DQ0C", "strings": ["failed", "the run failed", "run-7"],
 *     "problems": [[2, 0, [1], 0, null, 2, null, null, 1, null, null, null, false]], … }
 *   → units 0 and 1 published (code 13), unit 2 failed (code 2): one reason, lastRunId run-7, one attempt.
 */
const FORMAT_VERSION = 5;

/** The facts kept with each problem unit, in the order each row lists them. */
export const KEPT_FACT_FIELDS = [
  "publishCount",
  "ageMs",
  "lastRunId",
  "inputVersion",
  "codeVersion",
  "attempts",
  "partialRows",
  "sourceCount",
  "deviation",
  "running",
] as const satisfies readonly (keyof UnitStateFacts)[];
// Every fact field is listed: adding one to UnitStateFacts without listing it fails to compile.
const EVERY_FACT: Exclude<keyof UnitStateFacts, (typeof KEPT_FACT_FIELDS)[number]> extends never ? true : never = true;
void EVERY_FACT;
const FIELDS = KEPT_FACT_FIELDS.join(",");
const TEXT_FACTS: ReadonlySet<string> = new Set<keyof UnitStateFacts>(["lastRunId", "inputVersion", "codeVersion"]);
const STATES: ReadonlySet<string> = new Set(UNIT_STATE_PRECEDENCE);

/** What the kept states were computed under, and the datasets kept, in the states' order. */
export interface KeptHeader {
  catalog: string;
  ledger: string | null;
  /** The change watermark: every change up to `seq` applied, and `above` past a gap. */
  seq: number;
  above: number[];
  hour: number;
  /** The instant the units were resolved at (the spaces the codes index), ms. */
  resolvedAt: number;
  datasetIds: string[];
}

/** One dataset's kept states. */
export interface KeptDatasetStates {
  /** Byte per unit: the state's index in the precedence, or 255 (not expected). */
  codes: Uint8Array;
  /** The full result of every unit that is not simply healthy, by ordinal. */
  problems: Map<number, UnitStateResult>;
  invalidLedgerKeys: { key: string; reason: string }[];
  prevailing: string | null;
}

export class KeptStatesRefused extends Error {
  constructor(reason: string) {
    super(`the kept unit states are not well formed: ${reason}`);
    this.name = "KeptStatesRefused";
  }
}

/** `vocabulary`: a digest of the state precedence the codes index, computed by the caller. */
export function encodeKeptHeader(header: KeptHeader, vocabulary: string): string {
  const { catalog, ledger, seq, above, hour, resolvedAt, datasetIds } = header;
  return JSON.stringify({ version: FORMAT_VERSION, vocabulary, fields: FIELDS, catalog, ledger, seq, above, hour, resolvedAt, datasets: datasetIds });
}

/** The header, or null when it was kept under another format, vocabulary or fact list. */
export function decodeKeptHeader(body: string, vocabulary: string): KeptHeader | null {
  const h = parseObject(body);
  if (h.version !== FORMAT_VERSION || h.vocabulary !== vocabulary || h.fields !== FIELDS) return null;
  const { catalog, ledger, seq, above, hour, resolvedAt, datasets } = h;
  if (typeof catalog !== "string") throw new KeptStatesRefused("the header's catalog is not a text");
  if (ledger !== null && typeof ledger !== "string") throw new KeptStatesRefused("the header's ledger is not a text");
  if (!isInteger(seq) || !isInteger(hour) || !isInteger(resolvedAt)) throw new KeptStatesRefused("the header's seq, hour or resolvedAt is not an integer");
  if (!Array.isArray(above) || !above.every(isInteger)) throw new KeptStatesRefused("the header's above is not a list of integers");
  if (!Array.isArray(datasets) || !datasets.every((d) => typeof d === "string")) throw new KeptStatesRefused("the header's datasets are not a list of ids");
  return { catalog, ledger, seq, above, hour, resolvedAt, datasetIds: datasets };
}

export function encodeKeptDataset(d: KeptDatasetStates): string {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (text: string) => {
    let i = index.get(text);
    if (i === undefined) index.set(text, (i = strings.push(text) - 1));
    return i;
  };
  const problems = [...d.problems].map(([o, r]) => [
    o,
    intern(r.state),
    r.reasons.map(intern),
    ...KEPT_FACT_FIELDS.map((f) => {
      const v = r.facts[f];
      return TEXT_FACTS.has(f) && v !== null ? intern(v as string) : v;
    }),
  ]);
  return JSON.stringify({ codes: encodeBase64(d.codes), strings, problems, invalid: d.invalidLedgerKeys, prevailing: d.prevailing });
}

export function decodeKeptDataset(body: string): KeptDatasetStates {
  const { codes, strings, problems, invalid, prevailing } = parseObject(body);
  if (typeof codes !== "string") throw new KeptStatesRefused("a dataset's codes are not a text");
  if (!Array.isArray(strings) || !strings.every((s) => typeof s === "string")) throw new KeptStatesRefused("a dataset's strings are not texts");
  if (!Array.isArray(problems)) throw new KeptStatesRefused("a dataset's problems are not a list");
  if (!Array.isArray(invalid) || !invalid.every(isInvalidKey)) throw new KeptStatesRefused("a dataset's invalid keys are not {key, reason}");
  if (prevailing !== null && typeof prevailing !== "string") throw new KeptStatesRefused("a dataset's prevailing version is not a text");
  const text = (i: unknown): string => {
    if (!isInteger(i) || i < 0 || i >= strings.length) throw new KeptStatesRefused(`${JSON.stringify(i)} is not an index into the dataset's strings`);
    return strings[i]!;
  };
  const decoded = new Map<number, UnitStateResult>();
  for (const row of problems) {
    if (!Array.isArray(row) || row.length !== 3 + KEPT_FACT_FIELDS.length) throw new KeptStatesRefused(`a problem row of ${JSON.stringify(row)?.slice(0, 80)}`);
    const [ordinal, state, reasons, ...values] = row as unknown[];
    if (!isInteger(ordinal) || ordinal < 0) throw new KeptStatesRefused(`a problem's ordinal ${JSON.stringify(ordinal)}`);
    const name = text(state);
    if (!STATES.has(name)) throw new KeptStatesRefused(`${JSON.stringify(name)} is not a unit state`);
    if (!Array.isArray(reasons)) throw new KeptStatesRefused("a problem's reasons are not a list");
    const facts: Record<string, unknown> = {};
    KEPT_FACT_FIELDS.forEach((f, i) => {
      const v = values[i];
      if (v === null || (!TEXT_FACTS.has(f) && (typeof v === "number" || typeof v === "boolean"))) facts[f] = v;
      else if (TEXT_FACTS.has(f)) facts[f] = text(v);
      else throw new KeptStatesRefused(`a problem's ${f} of ${JSON.stringify(v)}`);
    });
    decoded.set(ordinal, { state: name as UnitState, reasons: reasons.map(text), facts: facts as unknown as UnitStateFacts });
  }
  return { codes: bytesOf(codes), problems: decoded, invalidLedgerKeys: invalid, prevailing };
}

function bytesOf(codes: string): Uint8Array {
  try {
    return decodeBase64(codes);
  } catch (e) {
    throw new KeptStatesRefused(`a dataset's codes are ${(e as Error).message}`);
  }
}

function parseObject(body: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    throw new KeptStatesRefused((e as Error).message);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new KeptStatesRefused("not a JSON object");
  return value as Record<string, unknown>;
}

function isInteger(v: unknown): v is number {
  return Number.isSafeInteger(v);
}

function isInvalidKey(v: unknown): v is { key: string; reason: string } {
  return typeof v === "object" && v !== null && typeof (v as { key?: unknown }).key === "string" && typeof (v as { reason?: unknown }).reason === "string";
}
