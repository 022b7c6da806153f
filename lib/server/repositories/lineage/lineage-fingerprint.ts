import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

/**
 * A cheap fingerprint of everything the compiled lineage depends on: every edge write stamps
 * recordedAt (a late event can move an old edge's validFrom without changing any count), tasks
 * and datasets carry updatedAt. Any change to the catalog changes one of these counts or maxima.
 */
export async function lineageFingerprint(db: Db): Promise<string> {
  const [edges, tasks, datasets] = await Promise.all([
    prismaOf(db).lineageEdge.aggregate({ _count: { _all: true }, _max: { validFrom: true, validTo: true, recordedAt: true } }),
    prismaOf(db).task.aggregate({ _count: { _all: true }, _max: { updatedAt: true } }),
    prismaOf(db).dataset.aggregate({ _count: { _all: true }, _max: { updatedAt: true } }),
  ]);
  const t = (d: Date | null | undefined) => d?.getTime() ?? 0;
  return [
    edges._count._all,
    t(edges._max.validFrom),
    t(edges._max.validTo),
    t(edges._max.recordedAt),
    tasks._count._all,
    t(tasks._max.updatedAt),
    datasets._count._all,
    t(datasets._max.updatedAt),
  ].join(":");
}

/**
 * The latest instant ≤ `asOf` at which an edge began or ended: two instants with the same one
 * see the same edges (edges hold from validFrom until validTo), so it keys compiled lineages
 * exactly, whatever instant was asked first. −∞ (as 0 here, before any edge) when none.
 */
export async function lastLineageChangeAt(db: Db, asOf: Date): Promise<number> {
  const [from, to] = await Promise.all([
    prismaOf(db).lineageEdge.aggregate({ where: { validFrom: { lte: asOf } }, _max: { validFrom: true } }),
    prismaOf(db).lineageEdge.aggregate({ where: { validTo: { lte: asOf } }, _max: { validTo: true } }),
  ]);
  return Math.max(from._max.validFrom?.getTime() ?? Number.MIN_SAFE_INTEGER, to._max.validTo?.getTime() ?? Number.MIN_SAFE_INTEGER);
}

/** The distinct partition definitions (JSON text) of the catalog: a handful, however many datasets. */
export async function distinctPartitionDefs(db: Db): Promise<string[]> {
  const rows = await prismaOf(db).dataset.findMany({ distinct: ["partitionDef"], select: { partitionDef: true } });
  return rows.map((r) => r.partitionDef);
}
