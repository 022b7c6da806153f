import type { MatrixRow, MatrixSection } from "@/lib/contracts/units";
import { NO_UNIT, STATE_CODES } from "@/lib/contracts/units";
import { NOT_EXPECTED, type DatasetStateCodes } from "./get-unit-state-snapshot";

const DAY = 86_400_000;
const GRAIN_LABEL = { hour: "Hourly", day: "Daily", week: "Weekly, ISO weeks", month: "Monthly" } as const;
const GRAIN_ORDER = ["day", "week", "month", "hour", "list", "none"] as const;

/** Character for each byte code, so a row is built as bytes and decoded once. */
const CHAR_OF = new Uint8Array(256).fill(NO_UNIT.charCodeAt(0));
for (let i = 0; i < STATE_CODES.length; i++) CHAR_OF[i] = STATE_CODES.charCodeAt(i);
const decoder = new TextDecoder();

export const UNDECLARED_NOTE =
  "expected units unknown — set a partition definition (PUT /api/v1/datasets/{id}/partitions); only the units its records name are shown, none is missing";

export interface DateRange {
  fromMs: number | null;
  toEndMs: number | null;
}

/**
 * Datasets grouped by partition definition: one section per time grain and zone (a shared
 * column axis from the earliest to the latest unit of its datasets, so one column is one
 * window across rows), one per distinct key list, one for unpartitioned datasets.
 */
export function buildSections(datasets: DatasetStateCodes[], range: DateRange): MatrixSection[] {
  const groups = new Map<string, DatasetStateCodes[]>();
  for (const d of datasets) {
    const id = sectionId(d);
    groups.set(id, [...(groups.get(id) ?? []), d]);
  }
  const sections = [...groups].map(([id, members]) => (members[0]!.space.time ? timeSection(id, members, range) : listSection(id, members)));
  const rank = (s: MatrixSection) => GRAIN_ORDER.indexOf(s.grain);
  return sections.sort((a, b) => rank(a) - rank(b) || a.label.localeCompare(b.label));
}

function sectionId(d: DatasetStateCodes): string {
  const def = d.dataset.partitionDef;
  if (def.kind === "time") return `${def.grain}:${def.timezone}`;
  if (def.kind === "none") return "none";
  return `list:${JSON.stringify(def)}`;
}

function timeSection(id: string, members: DatasetStateCodes[], range: DateRange): MatrixSection {
  const first = members[0]!.space.time!;
  let lo = Infinity;
  let hi = -Infinity;
  for (const d of members) {
    const t = d.space.time!;
    lo = Math.min(lo, t.startAbs);
    hi = Math.max(hi, t.startAbs + d.space.size - 1);
  }
  const abs: number[] = [];
  for (let a = lo; a <= hi; a++) {
    const o = a - first.startAbs;
    if (range.fromMs !== null && first.windowStartMs(o + 1) <= range.fromMs) continue;
    if (range.toEndMs !== null && first.windowStartMs(o) >= range.toEndMs) continue;
    abs.push(a);
  }
  const rows = members.map((d) =>
    rowOf(
      d,
      abs.map((a) => a - d.space.time!.startAbs),
    ),
  );
  return { id, label: `${GRAIN_LABEL[first.grain]} (${first.zone})`, grain: first.grain, columns: abs.map((a) => first.keyAt(a - first.startAbs)), rows };
}

function listSection(id: string, members: DatasetStateCodes[]): MatrixSection {
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
    rows: members.map((d) => rowOf(d, ordinals)),
  };
}

/** A dataset's pipeline: its own, or else its writer's (ingestion puts tasks, not datasets, in pipelines). */
export function pipelineOfDataset(d: Pick<DatasetStateCodes, "dataset" | "writer">): string | null {
  return d.dataset.pipeline ?? d.writer?.pipeline ?? null;
}

function rowOf(d: DatasetStateCodes, ordinals: number[]): MatrixRow {
  const bytes = new Uint8Array(ordinals.length);
  for (let i = 0; i < ordinals.length; i++) {
    const o = ordinals[i]!;
    bytes[i] = CHAR_OF[o >= 0 && o < d.codes.length ? d.codes[o]! : NOT_EXPECTED]!;
  }
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
