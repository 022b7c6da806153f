import { expectedUnits, resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import type { UnitSet } from "@/lib/domain/unit-set";
import { InvalidFieldError, NotFoundError } from "@/lib/domain/errors";
import type { DatasetRecord } from "../repositories/lineage/catalog-reads";

/** A dataset named by node id or by a unique short name; 404 names what was asked for. */
export function findDataset(datasets: DatasetRecord[], wanted: string): DatasetRecord {
  const exact = datasets.find((d) => d.nodeId === wanted);
  if (exact) return exact;
  const byName = datasets.filter((d) => d.name === wanted);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) throw new InvalidFieldError("query.dataset", `"${wanted}" is ambiguous: ${byName.map((d) => d.nodeId).join(", ")}`);
  throw new NotFoundError(`no dataset "${wanted}"`);
}

/**
 * The expected units of the period, each bound validated against the dataset's definition at
 * `now`: a key the definition rejects is a 400 naming the bound and the reason (seed 002), never
 * an empty — and therefore vacuously complete — period.
 */
export function resolvePeriod(
  dataset: DatasetRecord,
  now: Date,
  from?: string,
  to?: string,
): { space: PartitionSpace; units: UnitSet; from: string; to: string } {
  const space = resolvePartitions(dataset.partitionDef, { asOf: now.getTime() });
  for (const [field, key] of [
    ["query.from", from],
    ["query.to", to],
  ] as const) {
    if (key === undefined) continue;
    const verdict = space.validate(key);
    if (!verdict.valid) throw new InvalidFieldError(field, verdict.reason);
  }
  if (space.size === 0) throw new InvalidFieldError("query.dataset", `${dataset.nodeId} has no expected units yet`);
  const units = expectedUnits(space, from, to);
  if (units.isEmpty) throw new InvalidFieldError("query.to", `the period ${from ?? "(start)"} … ${to ?? "(end)"} holds no expected unit`);
  return { space, units, from: space.keyAt(units.min!), to: space.keyAt(units.max!) };
}
