import type { MatrixRow, MatrixSection } from "@/lib/contracts/units";
import { NO_UNIT, STATE_CODES } from "@/lib/contracts/units";
import { NOT_EXPECTED, type DatasetStateCodes } from "./state-service";

const DAY = 86_400_000;
const GRAIN_LABEL = { hour: "Hourly", day: "Daily", week: "Weekly, ISO weeks", month: "Monthly" } as const;
const GRAIN_ORDER = ["day", "week", "month", "hour", "list", "none"] as const;

/** Character for each byte code, so a row is built as bytes and decoded once. */
const CHAR_OF = new Uint8Array(256).fill(NO_UNIT.charCodeAt(0));
for (let i = 0; i < STATE_CODES.length; i++) CHAR_OF[i] = STATE_CODES.charCodeAt(i);
const decoder = new TextDecoder();

export const UNDECLARED_NOTE =
  "expected units unknown — set a partition definition (PUT /api/v1/datasets/{id}/partitions); only the units its records name are shown, none is missing";

/** Cells per state code (NOT_EXPECTED included), filled as rows are built: 256 counters. */
export type CellTally = Uint32Array;

export interface DateRange {
  fromMs: number | null;
  toEndMs: number | null;
}

/**
 * Datasets grouped by partition definition: one section per time grain and zone (a shared
 * column axis from the earliest to the latest unit of its datasets, so one column is one
 * window across rows), one per distinct key list, one for unpartitioned datasets.
 */
export function buildSections(datasets: DatasetStateCodes[], range: DateRange, tally?: CellTally): MatrixSection[] {
  const groups = new Map<string, DatasetStateCodes[]>();
  for (const d of datasets) {
    const id = sectionId(d);
    const members = groups.get(id);
    if (members) members.push(d);
    else groups.set(id, [d]);
  }
  const sections = [...groups].map(([id, members]) => (members[0]!.space.time ? timeSection(id, members, range, tally) : listSection(id, members, tally)));
  const rank = (s: MatrixSection) => GRAIN_ORDER.indexOf(s.grain);
  return sections.sort((a, b) => rank(a) - rank(b) || a.label.localeCompare(b.label));
}

function sectionId(d: DatasetStateCodes): string {
  const def = d.dataset.partitionDef;
  if (def.kind === "time") return `${def.grain}:${def.timezone}`;
  if (def.kind === "none") return "none";
  return `list:${JSON.stringify(def)}`;
}

function timeSection(id: string, members: DatasetStateCodes[], range: DateRange, tally?: CellTally): MatrixSection {
  const first = members[0]!.space.time!;
  let lo = Infinity;
  let hi = -Infinity;
  for (const d of members) {
    const t = d.space.time!;
    lo = Math.min(lo, t.startAbs);
    hi = Math.max(hi, t.startAbs + d.space.size - 1);
  }
  // The columns are one contiguous run of the axis (a date range cuts its ends only).
  let from = lo;
  let to = hi;
  while (from <= to && range.fromMs !== null && first.windowStartMs(from - first.startAbs + 1) <= range.fromMs) from++;
  while (to >= from && range.toEndMs !== null && first.windowStartMs(to - first.startAbs) >= range.toEndMs) to--;
  const count = Math.max(0, to - from + 1);
  const columns: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) columns[i] = first.keyAt(from + i - first.startAbs);
  const rows = members.map((d) => rowOf(d, from - d.space.time!.startAbs, count, tally));
  return { id, label: `${GRAIN_LABEL[first.grain]} (${first.zone})`, grain: first.grain, columns, rows };
}

function listSection(id: string, members: DatasetStateCodes[], tally?: CellTally): MatrixSection {
  const d0 = members[0]!;
  const def = d0.dataset.partitionDef;
  const ordinals = Array.from({ length: d0.space.size }, (_, i) => i);
  const label =
    def.kind === "none"
      ? "Unpartitioned"
      : def.kind === "static"
        ? `Static keys (${d0.space.size})`
        : def.kind === "multi"
          ? `Multi-dimensional (${def.dimensions.map((x) => x.name).join(" × ")})`
          : "Dynamic partitions";
  return {
    id,
    label,
    grain: def.kind === "none" ? "none" : "list",
    columns: ordinals.map((o) => d0.space.keyAt(o)),
    rows: members.map((d) => rowOf(d, 0, ordinals.length, tally)),
  };
}

/** A dataset's pipeline: its own, or else its writer's (ingestion puts tasks, not datasets, in pipelines). */
export function pipelineOfDataset(d: Pick<DatasetStateCodes, "dataset" | "writer">): string | null {
  return d.dataset.pipeline ?? d.writer?.pipeline ?? null;
}

/**
 * A dataset's row and what its cells count per state code, kept for its states and window: a
 * dataset's states are replaced, never changed in place, so while a first computation adds
 * datasets, or a write replaces one dataset's states, the other rows are the ones already built
 * (and their runs already written: get-unit-matrix.ts). Each build was every row's cells again:
 * at 10,950,000 cells ~100 ms of the event loop per matrix request (docs/units.md).
 */
const keptRows = new WeakMap<DatasetStateCodes, { start: number; count: number; row: MatrixRow; counted: [code: number, cells: number][] }>();

/** The row of `count` cells from ordinal `start` on (out of the dataset's range: no unit). */
function rowOf(d: DatasetStateCodes, start: number, count: number, tally?: CellTally): MatrixRow {
  let kept = keptRows.get(d);
  if (!kept || kept.start !== start || kept.count !== count) {
    const own = new Uint32Array(256);
    const row = buildRow(d, start, count, own);
    const counted: [number, number][] = [];
    for (let code = 0; code < own.length; code++) if (own[code]! > 0) counted.push([code, own[code]!]);
    keptRows.set(d, (kept = { start, count, row, counted }));
  }
  if (tally) for (const [code, cells] of kept.counted) tally[code]! += cells;
  return kept.row;
}

function buildRow(d: DatasetStateCodes, start: number, count: number, tally: CellTally): MatrixRow {
  const bytes = new Uint8Array(count);
  const codes = d.codes;
  const lo = Math.max(0, -start);
  const hi = Math.min(count, codes.length - start);
  bytes.fill(CHAR_OF[NOT_EXPECTED]!);
  for (let i = lo; i < hi; i++) bytes[i] = CHAR_OF[codes[start + i]!]!;
  for (let i = lo; i < hi; i++) tally[codes[start + i]!]!++;
  tally[NOT_EXPECTED]! += count - Math.max(0, hi - lo);
  return {
    nodeId: d.dataset.nodeId,
    name: d.dataset.name,
    pipeline: pipelineOfDataset(d),
    writerNodeId: d.writer?.nodeId ?? null,
    cells: decoder.decode(bytes),
    note: d.dataset.partitionsDeclared ? null : UNDECLARED_NOTE,
  };
}

export function dateRange(from: string | undefined, to: string | undefined): DateRange {
  return { fromMs: from ? Date.parse(`${from}T00:00:00Z`) : null, toEndMs: to ? Date.parse(`${to}T00:00:00Z`) + DAY : null };
}
