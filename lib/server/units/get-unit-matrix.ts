import {
  UNIT_STATES,
  codeOfState,
  matrixInRuns,
  type MatrixRow,
  type UnitMatrixInRuns,
  type MatrixInvalidKey,
  type MatrixSection,
  type MatrixState,
  type UnitMatrix,
  type UnitMatrixQuery,
} from "@/lib/contracts/units";
import { toRuns } from "@/lib/contracts/cell-runs";
import { getDb, type Db } from "../repositories/database";
import { NotFoundError } from "@/lib/domain/errors";
import { listTasks } from "../repositories/lineage/catalog-reads";
import { listPipelines } from "../repositories/pipelines/orchestrator-connections";
import { listInvalidKeys } from "../repositories/ledger/unit-ledger";
import { getUnitStateSnapshot, statusOf, type DatasetStateCodes, type UnitStateSnapshot } from "./state-service";
import { buildSections, dateRange, pipelineOfDataset } from "./matrix-sections";

/** What the matrix shows (the form of its cells aside). */
type MatrixScope = Omit<UnitMatrixQuery, "cells">;

/**
 * The unit matrix: datasets × expected units, one character per cell, grouped by partition
 * definition; filtered by pipeline, dataset, date range and state. Invalid keys (seed 002) are
 * listed apart: they are not units of any definition, so they have no cell.
 */
export async function getUnitMatrix(query: MatrixScope, now: Date, db: Db = getDb()): Promise<UnitMatrix> {
  const [snapshot, invalid, pipelines] = await Promise.all([getUnitStateSnapshot(db, now), listInvalidKeys(db), listPipelines(db)]);
  // The tasks only place invalid keys in their pipelines: not read when there are none.
  const tasks = invalid.length > 0 ? await listTasks(db) : [];
  if (query.dataset && !snapshot.datasets.some((d) => d.dataset.nodeId === query.dataset)) {
    throw new NotFoundError(`dataset: no dataset "${query.dataset}"`);
  }
  const scoped = snapshot.datasets.filter(
    (d) => (!query.pipeline || pipelineOfDataset(d) === query.pipeline) && (!query.dataset || d.dataset.nodeId === query.dataset),
  );
  const { sections, counts } = sectionsOf(snapshot, scoped, query);
  const wanted = new Set(query.states.map(codeOfState));
  const filtered =
    wanted.size === 0
      ? sections
      : sections.map((s) => ({ ...s, rows: s.rows.filter((r) => [...wanted].some((c) => r.cells.includes(c))) })).filter((s) => s.rows.length > 0);
  const pipelineOf = new Map<string, string | null>([
    ...tasks.map((t) => [t.nodeId, t.pipeline] as const),
    ...snapshot.datasets.map((d) => [d.dataset.nodeId, pipelineOfDataset(d)] as const),
  ]);
  const nodes = new Set(scoped.flatMap((d) => [d.dataset.nodeId, ...(d.writer ? [d.writer.nodeId] : [])]));
  const requested: MatrixInvalidKey[] = invalid
    .filter((k) => (query.dataset ? nodes.has(k.nodeId) : !query.pipeline || pipelineOf.get(k.nodeId) === query.pipeline))
    .map((k) => ({ nodeId: k.nodeId, unitKey: k.unitKey, reason: k.reason, source: k.source, observedAt: k.observedAt.toISOString() }));
  return {
    generatedAt: snapshot.computedAt.toISOString(),
    states: await statusOf(db, snapshot, now),
    counts,
    // Every pipeline of the catalog — ingestion and a dbt import create them on tasks, not datasets.
    pipelines: [...new Set(pipelines.map((p) => p.name))].sort(),
    sections: filtered,
    invalidKeys: [...requested, ...ledgerInvalidKeys(scoped, snapshot.computedAt)],
  };
}

/**
 * The matrix with each row's cells as runs (`cells=runs`, what the page asks for). A row's runs
 * are written once: the rows of a kept build are the same objects request after request.
 */
export async function getUnitMatrixInRuns(query: MatrixScope, now: Date, db: Db = getDb()): Promise<UnitMatrixInRuns> {
  return matrixInRuns(await getUnitMatrix(query, now, db), runsOfRow);
}

const runsOfRows = new WeakMap<MatrixRow, string>();
function runsOfRow(row: MatrixRow): string {
  let runs = runsOfRows.get(row);
  if (runs === undefined) runsOfRows.set(row, (runs = toRuns(row.cells)));
  return runs;
}

/**
 * The sections and counts of a scope of the states, built once per states and scope: the states
 * are replaced, never changed in place, so the same snapshot always builds the same rows (a
 * build of a big world's rows holds the event loop, and every open matrix polls: docs/units.md).
 */
const built = new WeakMap<UnitStateSnapshot, Map<string, { sections: MatrixSection[]; counts: Record<MatrixState, number> }>>();
const BUILT_PER_STATES = 4;

function sectionsOf(snapshot: UnitStateSnapshot, scoped: DatasetStateCodes[], query: MatrixScope) {
  const key = JSON.stringify([query.pipeline ?? null, query.dataset ?? null, query.from ?? null, query.to ?? null]);
  let forStates = built.get(snapshot);
  const kept = forStates?.get(key);
  if (kept) return kept;
  // Counted from the state codes while the rows are built: one pass over the cells, not two.
  const tally = new Uint32Array(256);
  const sections = buildSections(scoped, dateRange(query.from, query.to), tally);
  const counts = Object.fromEntries(UNIT_STATES.map((s, i) => [s, tally[i]!])) as Record<MatrixState, number>;
  if (!forStates) built.set(snapshot, (forStates = new Map()));
  if (forStates.size >= BUILT_PER_STATES) forStates.delete(forStates.keys().next().value!);
  forStates.set(key, { sections, counts });
  return { sections, counts };
}

function ledgerInvalidKeys(datasets: DatasetStateCodes[], at: Date): MatrixInvalidKey[] {
  return datasets.flatMap((d) =>
    d.invalidLedgerKeys.map((k) => ({
      nodeId: d.dataset.nodeId,
      unitKey: k.key,
      reason: `published to the ledger, but ${k.reason}`,
      source: "ledger",
      observedAt: at.toISOString(),
    })),
  );
}
