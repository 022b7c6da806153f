import { resolvePartitions } from "@/lib/domain/partitions";
import type { Db } from "../repositories/database";
import type { DatasetRecord } from "../repositories/lineage/catalog-reads";
import { findWarehouse } from "../repositories/warehouses/warehouse-connections";
import { demoWarehouse } from "./demo";
import type { UnitRows, Warehouse } from "./port";
import { postgresWarehouse } from "./postgresql";

/** The warehouse a dataset's rows live in (its namespace's connection), or null when none is connected. */
export async function warehouseFor(db: Db, dataset: Pick<DatasetRecord, "namespace">): Promise<Warehouse | null> {
  const stored = await findWarehouse(db, dataset.namespace);
  switch (stored?.connection.kind) {
    case "postgresql":
      return postgresWarehouse(stored.connection);
    case "demo":
      return demoWarehouse;
    default:
      return null;
  }
}

/** A unit of a dataset as the warehouse port addresses it (its window from the partition definition). */
export function unitRows(dataset: Pick<DatasetRecord, "id" | "namespace" | "name" | "partitionDef">, unitKey: string, now: Date): UnitRows {
  const space = resolvePartitions(dataset.partitionDef, { asOf: now.getTime() });
  const v = space.validate(unitKey);
  const window =
    space.time && v.valid ? { start: new Date(space.time.windowStartMs(v.ordinal)), end: new Date(space.time.windowStartMs(v.ordinal + 1)) } : null;
  return { datasetId: dataset.id, namespace: dataset.namespace, name: dataset.name, unitKey, window };
}

/** The unit's rows now, or null when its warehouse is not connected or cannot be read (unknown — never shown as 0). */
export async function measuredRows(
  db: Db,
  dataset: Pick<DatasetRecord, "id" | "namespace" | "name" | "partitionDef">,
  unitKey: string,
  now: Date,
): Promise<number | null> {
  return (await measuredRowsOfUnits(db, dataset, [unitKey], now)).get(unitKey) ?? null;
}

/** measuredRows for many units of one dataset, counted over one warehouse connection. */
export async function measuredRowsOfUnits(
  db: Db,
  dataset: Pick<DatasetRecord, "id" | "namespace" | "name" | "partitionDef">,
  unitKeys: readonly string[],
  now: Date,
): Promise<Map<string, number | null>> {
  const warehouse = await warehouseFor(db, dataset);
  const counted =
    warehouse && unitKeys.length > 0
      ? await warehouse
          .countRows(
            db,
            unitKeys.map((k) => unitRows(dataset, k, now)),
          )
          .catch(() => null)
      : null;
  return new Map(unitKeys.map((k) => [k, counted?.get(k) ?? null]));
}
