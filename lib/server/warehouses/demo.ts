import type { Db } from "../db/client";
import { countUnitRows, deleteUnitRows } from "../repositories/unit-interventions";
import type { Warehouse } from "./port";

/** The demo's warehouse: the WarehouseRow table in Reparo's own database (the demo's datasets only). */
export const demoWarehouse: Warehouse = {
  kind: "demo",
  statement: (unit) => ({ sql: `DELETE FROM "WarehouseRow" WHERE "datasetId" = $1 AND "unitKey" = $2`, params: [unit.datasetId, unit.unitKey] }),
  countRows: (db: Db, unit) => countUnitRows(db, unit.datasetId, unit.unitKey),
  clean: (db, unit, record) =>
    db.$transaction(async (tx) => {
      const before = await deleteUnitRows(tx, unit.datasetId, unit.unitKey);
      const after = await countUnitRows(tx, unit.datasetId, unit.unitKey);
      return record(tx, { before, after });
    }),
};
