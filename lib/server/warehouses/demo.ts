import { inTransaction, type Db } from "../repositories/database";
import { countUnitRows, deleteUnitRows } from "../repositories/warehouses/warehouse-rows";
import type { Warehouse } from "./port";

/** The demo's warehouse: the WarehouseRow table in Reparo's own database (the demo's datasets only). */
export const demoWarehouse: Warehouse = {
  kind: "demo",
  statement: (unit) => ({ sql: `DELETE FROM "WarehouseRow" WHERE "datasetId" = $1 AND "unitKey" = $2`, params: [unit.datasetId, unit.unitKey] }),
  countRows: async (db: Db, units) => new Map(await Promise.all(units.map(async (u) => [u.unitKey, await countUnitRows(db, u.datasetId, u.unitKey)] as const))),
  // One database, one transaction: the delete and its record commit together (nothing to undo).
  clean: (db, unit, record) =>
    inTransaction(db, async (tx) => {
      const before = await deleteUnitRows(tx, unit.datasetId, unit.unitKey);
      const after = await countUnitRows(tx, unit.datasetId, unit.unitKey);
      return record(tx, { before, after });
    }),
};
