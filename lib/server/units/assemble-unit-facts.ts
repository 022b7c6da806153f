import { prevailingPerInput, type InputScope } from "@/lib/domain/input-versions";
import { mostCommon } from "@/lib/domain/validation";
import type { Attempt, LedgerEntry, OperatorMark, UnitFacts, UpstreamProblem, UpstreamPublish } from "@/lib/domain/unit-state";
import type { DatasetRecord, TaskRecord } from "../repositories/lineage/catalog-reads";

/** One dataset's records, as read by whichever loader (the matrix's, or completeness's scoped one). */
export interface DatasetRecords {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  ledger: Map<string, LedgerEntry[]>;
  attempts: Map<string, Attempt[]> | undefined;
  sources: Map<string, number> | undefined;
  marks: Map<string, OperatorMark[]> | undefined;
  /** When an operator last cleaned each unit (an appended unit emptied before its repair). */
  cleaned: Map<string, number> | undefined;
  /** The newest publish among the upstream units a unit (by ordinal) reads. */
  upstreamOf: (ordinal: number) => readonly UpstreamPublish[];
  /** Which of the writer's inputs neighbours share (input-versions.ts); every input when unknown. */
  inputScope?: InputScope;
  /** The problem upstream units a unit (by ordinal) was built from: what makes it suspect. */
  upstreamBadOf?: (ordinal: number) => readonly UpstreamProblem[];
  /** The input version most of the dataset's units were built from, when `ledger` holds only some units (an incremental update). */
  neighbourInputVersion?: string | null;
}

const NONE: readonly never[] = [];

/**
 * The facts lib/domain's unitState decides on, for the given units of one dataset. Every screen
 * that shows a unit state (matrix, overview, completeness, validation, alerts) builds its facts
 * here, so a rule input added once (e.g. an operator's cleaning) reaches all of them.
 */
export function assembleUnitFacts(r: DatasetRecords, units: readonly { key: string; ordinal: number }[]): UnitFacts[] {
  const neighbourInputVersion = r.neighbourInputVersion !== undefined ? r.neighbourInputVersion : prevailingOf(r.ledger);
  // Unknown stays unknown: a second publish is a republish, not a duplicate, until someone
  // declares the write mode (or rows above the source count are evidence of a second copy).
  const writeMode = r.writer?.writeMode ?? null;
  return units.map(({ key, ordinal }) => ({
    ledger: r.ledger.get(key) ?? NONE,
    attempts: r.attempts?.get(key) ?? NONE,
    sourceCount: r.sources?.get(key) ?? null,
    tolerance: r.dataset.tolerance,
    writeMode,
    upstream: r.upstreamOf(ordinal),
    upstreamBad: r.upstreamBadOf?.(ordinal) ?? NONE,
    neighbourInputVersion,
    inputScope: r.inputScope,
    marks: r.marks?.get(key) ?? NONE,
    cleanedAt: r.cleaned?.get(key) ?? null,
  }));
}

/**
 * The input version most units of a dataset were built from (per input: prevailingPerInput), from
 * its whole ledger: each unit's latest publish (the last of the newest instant, as latestByUnit),
 * read in place — a copy of every ledger row per dataset was most of a full computation's time.
 */
export function prevailingOf(ledger: Map<string, LedgerEntry[]>): string | null {
  const latestVersions: (string | null)[] = [];
  for (const list of ledger.values()) {
    let latest: LedgerEntry | undefined;
    for (const row of list) if (latest === undefined || row.publishedAt >= latest.publishedAt) latest = row;
    if (latest !== undefined) latestVersions.push(latest.inputVersion);
  }
  return prevailingOfLatest(latestVersions);
}

/** The prevailing input version from each unit's latest publish's version. */
export function prevailingOfLatest(latestVersions: readonly (string | null)[]): string | null {
  return prevailingPerInput(latestVersions) ?? mostCommon(latestVersions);
}
