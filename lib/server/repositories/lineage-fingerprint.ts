import type { Db } from "../db/client";

/**
 * A cheap fingerprint of everything the compiled lineage depends on: edges are append-and-close
 * (a change adds a row or sets validTo), tasks and datasets carry updatedAt. Any change to the
 * catalog changes one of these counts or maxima.
 */
export async function lineageFingerprint(db: Db): Promise<string> {
  const [edges, tasks, datasets] = await Promise.all([
    db.lineageEdge.aggregate({ _count: { _all: true }, _max: { validFrom: true, validTo: true } }),
    db.task.aggregate({ _count: { _all: true }, _max: { updatedAt: true } }),
    db.dataset.aggregate({ _count: { _all: true }, _max: { updatedAt: true } }),
  ]);
  const t = (d: Date | null | undefined) => d?.getTime() ?? 0;
  return [edges._count._all, t(edges._max.validFrom), t(edges._max.validTo), tasks._count._all, t(tasks._max.updatedAt), datasets._count._all, t(datasets._max.updatedAt)].join(":");
}
