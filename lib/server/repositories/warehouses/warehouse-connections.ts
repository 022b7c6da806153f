import { WarehouseConnectionSchema, type WarehouseConnection } from "@/lib/contracts/warehouses";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

export interface StoredWarehouse {
  namespace: string;
  connection: WarehouseConnection;
  updatedBy: string;
  updatedAt: Date;
}

const toStored = (r: { namespace: string; config: string; updatedBy: string; updatedAt: Date }): StoredWarehouse => ({
  namespace: r.namespace,
  connection: WarehouseConnectionSchema.parse(JSON.parse(r.config)),
  updatedBy: r.updatedBy,
  updatedAt: r.updatedAt,
});

export async function findWarehouse(db: Db | Tx, namespace: string): Promise<StoredWarehouse | null> {
  const row = await prismaOf(db).warehouseConnection.findUnique({ where: { namespace } });
  return row ? toStored(row) : null;
}

export async function listWarehouses(db: Db | Tx): Promise<StoredWarehouse[]> {
  return (await prismaOf(db).warehouseConnection.findMany({ orderBy: { namespace: "asc" } })).map(toStored);
}

export async function saveWarehouse(tx: Tx, namespace: string, connection: WarehouseConnection, updatedBy: string, at: Date): Promise<void> {
  const data = { kind: connection.kind, config: JSON.stringify(connection), updatedBy, updatedAt: at };
  await prismaOf(tx).warehouseConnection.upsert({ where: { namespace }, create: { namespace, ...data }, update: data });
}

/** The dataset namespaces Reparo knows (from the catalog), for listing warehouses. */
export async function datasetNamespaces(db: Db): Promise<string[]> {
  return (await prismaOf(db).dataset.findMany({ distinct: ["namespace"], select: { namespace: true }, orderBy: { namespace: "asc" } })).map((d) => d.namespace);
}
