import { advanceWatermark, unappliedChanges } from "@/lib/domain/change-watermark";
import { closure, type Seed } from "@/lib/domain/closure";
import type { DatasetId } from "@/lib/domain/ids";
import { resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import { loadLineageGraph } from "../../lineage/load-lineage-graph";
import { listDatasets, listEdgesAt } from "../../repositories/lineage/catalog-reads";
import { lineageFingerprint } from "../../repositories/lineage/lineage-fingerprint";
import type { Db } from "../../repositories/database";
import { unitChangesAfter } from "../../repositories/units/unit-changes";
import { turn, type DatasetUnitStates } from "../load-unit-states";
import { readUnitRecords, recomputeUnits } from "../recompute-units";
import { HEALTHY, NOT_EXPECTED, RANK } from "../state-codes";
import { startFullComputation } from "./full-computation";
import { schedulePersist } from "./kept-states";
import { problemsLookupOf } from "./lookups";
import type { Entry, ServiceState } from "./service-state";
import { isBigWorld, type DatasetStateCodes } from "./unit-state-snapshot";

/** Beyond this many changes, or units to recompute, one full computation is cheaper. */
const MAX_CHANGES = 50_000;
const MAX_UNITS = 400_000;

/**
 * The changes after the applied ones, and on a new hour the units that became due, applied as
 * unit recomputations over their downstream closure, upstream first. Too many at once: a full
 * computation (the states answer meanwhile as they are).
 */
export async function applyChanges(db: Db, now: Date, s: ServiceState, entry: Entry, hour: number): Promise<void> {
  const changes = await unitChangesAfter(db, entry.watermark.seq, MAX_CHANGES + 1);
  const fresh = unappliedChanges(entry.watermark, changes);
  if (fresh.length > MAX_CHANGES) {
    s.entry = { ...entry, catalog: "" };
    startFullComputation(db, now, s, await lineageFingerprint(db));
    return;
  }
  const [edges, datasets] = await Promise.all([listEdgesAt(db, now), listDatasets(db)]);
  const byId = new Map(entry.snapshot.datasets.map((d) => [d.dataset.id, d]));
  const seeds = new Map<string, Set<number>>();
  const seed = (d: DatasetStateCodes, ordinal: number) => seeds.set(d.dataset.id, (seeds.get(d.dataset.id) ?? new Set()).add(ordinal));
  const written = writtenBy(entry.snapshot.datasets);
  const resized = new Map<string, DatasetStateCodes>();
  if (hour !== entry.hour) for (const d of entry.snapshot.datasets) newlyDue(d, now, seed, resized);
  for (const c of fresh) {
    for (const d of c.datasetId ? [byId.get(c.datasetId)] : (written.get(c.taskId ?? "") ?? [])) {
      const target = d && (resized.get(d.dataset.id) ?? d);
      const v = target?.space.validate(c.unitKey);
      if (target && v?.valid) seed(target, v.ordinal);
    }
  }
  const work = await affectedUnits(db, now, seeds, byId, resized);
  if (work.total > MAX_UNITS) {
    s.entry = { ...entry, catalog: "" };
    startFullComputation(db, now, s, await lineageFingerprint(db));
    return;
  }
  const current = new Map(entry.snapshot.datasets.map((d) => [d.dataset.id, resized.get(d.dataset.id) ?? d]));
  const big = isBigWorld(entry.snapshot);
  const problemsOf = problemsLookupOf(current);
  const spaces = new Map([...current.values()].map((d) => [d.dataset.id, d.space]));
  const datasetsById = new Map(datasets.map((x) => [x.id, x]));
  const records = await readUnitRecords(
    db,
    work.order.flatMap(({ datasetId, units }) => {
      const space = current.get(datasetId)?.space;
      return space ? [{ datasetId, keys: [...units].filter((o) => o < space.size).map((o) => space.keyAt(o)) }] : [];
    }),
  );
  for (const { datasetId, units } of work.order) {
    const d = current.get(datasetId);
    if (!d) continue;
    const recomputed = await recomputeUnits(
      db,
      now,
      { dataset: d.dataset, writer: d.writer, space: d.space, units, prevailing: d.prevailing },
      {
        edges,
        datasetsById,
        spaces,
        problemsOf: problemsOf.get,
        records,
      },
    );
    const next = withUnits(d, units, recomputed);
    current.set(datasetId, next);
    problemsOf.forget(datasetId);
    // A turn of the event loop between datasets (load-unit-states.ts), or an update that caught
    // up with a stream of writes (thousands of units) holds every read for its length.
    if (big) await turn();
  }
  s.entry = {
    ...entry,
    watermark: advanceWatermark(
      entry.watermark,
      fresh.map((c) => c.seq),
      changes.map((c) => c.seq),
      Date.now(),
    ),
    hour,
    snapshot: { computedAt: now, datasets: entry.snapshot.datasets.map((d) => current.get(d.dataset.id)!), computing: null, refreshing: false },
  };
  schedulePersist(db, s);
}

/** The datasets each task writes, by task row id. */
function writtenBy(datasets: DatasetStateCodes[]): Map<string, DatasetStateCodes[]> {
  const out = new Map<string, DatasetStateCodes[]>();
  for (const d of datasets) if (d.writer) out.set(d.writer.id, [...(out.get(d.writer.id) ?? []), d]);
  return out;
}

/** A new hour: the units that became due (or exist) since the codes were sized, as seeds; the codes resized. */
function newlyDue(d: DatasetStateCodes, now: Date, seed: (d: DatasetStateCodes, o: number) => void, resized: Map<string, DatasetStateCodes>): void {
  let space: PartitionSpace;
  try {
    space = resolvePartitions(d.dataset.partitionDef, { asOf: now.getTime() });
  } catch {
    return;
  }
  if (space.size === d.space.size && space.due.equals(d.space.due)) return;
  const codes = new Uint8Array(space.size).fill(NOT_EXPECTED);
  codes.set(d.codes.subarray(0, Math.min(space.size, d.codes.length)));
  const next = { ...d, space, codes };
  resized.set(d.dataset.id, next);
  const before = UnitSet.range(0, d.space.size - 1);
  for (const o of space.due.difference(d.space.due).union(UnitSet.range(d.space.size, space.size - 1).difference(before))) seed(next, o);
}

/** The seeds' downstream closure through the lineage of now, as units per dataset in topological order. */
async function affectedUnits(
  db: Db,
  now: Date,
  seeds: Map<string, Set<number>>,
  byId: Map<string, DatasetStateCodes>,
  resized: Map<string, DatasetStateCodes>,
) {
  const order: { datasetId: string; units: UnitSet }[] = [];
  if (seeds.size === 0) return { order, total: 0 };
  const { graph, datasets } = await loadLineageGraph(db, now);
  const idOfNode = new Map([...datasets.values()].map((d) => [d.nodeId, d.id]));
  const inGraph: Seed[] = [];
  const outside: { datasetId: string; units: UnitSet }[] = [];
  for (const [datasetId, ordinals] of seeds) {
    const d = resized.get(datasetId) ?? byId.get(datasetId)!;
    const units = UnitSet.fromOrdinals(ordinals);
    if (graph.index.has(d.dataset.nodeId as DatasetId)) inGraph.push({ node: d.dataset.nodeId as DatasetId, units });
    else outside.push({ datasetId, units });
  }
  let total = outside.reduce((n, o) => n + o.units.size, 0);
  if (inGraph.length > 0) {
    const down = closure(graph, inGraph, "downstream");
    for (const i of graph.topo) {
      const node = graph.nodes[i]!;
      const entry = node.nodeKind === "dataset" ? down.entries.get(node.id) : undefined;
      const datasetId = entry && idOfNode.get(node.id);
      if (!entry || !datasetId || !byId.has(datasetId)) continue;
      const size = (resized.get(datasetId) ?? byId.get(datasetId)!).space.size;
      const units = entry.units.clip(size);
      if (units.isEmpty) continue;
      order.push({ datasetId, units });
      total += units.size;
    }
  }
  return { order: [...outside, ...order], total };
}

/** The dataset's codes and problems with the recomputed units replaced (units without a state now: none). */
function withUnits(d: DatasetStateCodes, units: UnitSet, recomputed: DatasetUnitStates): DatasetStateCodes {
  const codes = d.codes.slice();
  const problems = new Map(d.problems);
  for (const o of units) {
    if (o >= codes.length) break;
    codes[o] = NOT_EXPECTED;
    problems.delete(o);
  }
  for (const u of recomputed.units) {
    codes[u.ordinal] = RANK.get(u.result.state)!;
    if (!HEALTHY.has(u.result.state)) problems.set(u.ordinal, u.result);
  }
  return { ...d, codes, problems };
}
