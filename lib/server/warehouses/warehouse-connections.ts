import type { WarehouseConnection, WarehouseConnectionView } from "@/lib/contracts/warehouses";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { NotFoundError } from "@/lib/domain/errors";
import { requireAllowedSecret, secretName, secretReadable } from "../orchestrators/secrets";
import { hasRole } from "../auth/roles";
import { datasetNamespaces, findWarehouse, listWarehouses, saveWarehouse, type StoredWarehouse } from "../repositories/warehouses/warehouse-connections";

/** Whether the connection string's secret can be read now is for admins only (it tells whether a named file exists). */
async function view(namespace: string, stored: StoredWarehouse | null, reader: Pick<Actor, "role">): Promise<WarehouseConnectionView> {
  const connection: WarehouseConnection = stored?.connection ?? { kind: "none" };
  const readable = connection.kind === "postgresql" && hasRole(reader, "admin") ? await secretReadable(connection.url) : null;
  const secret = connection.kind === "postgresql" ? { name: secretName(connection.url), readable } : null;
  return { namespace, connection, secret, updatedBy: stored?.updatedBy ?? null, updatedAt: stored?.updatedAt.toISOString() ?? null };
}

/** Every dataset namespace with its warehouse connection (GET /api/v1/warehouses). */
export async function listWarehouseConnections(reader: Pick<Actor, "role">, db: Db = getDb()): Promise<WarehouseConnectionView[]> {
  const [namespaces, stored] = await Promise.all([datasetNamespaces(db), listWarehouses(db)]);
  const byNs = new Map(stored.map((s) => [s.namespace, s]));
  const all = [...new Set([...namespaces, ...byNs.keys()])].sort();
  return Promise.all(all.map((ns) => view(ns, byNs.get(ns) ?? null, reader)));
}

export async function getWarehouseConnection(namespace: string, reader: Pick<Actor, "role">, db: Db = getDb()): Promise<WarehouseConnectionView> {
  return view(namespace, await findWarehouse(db, namespace), reader);
}

/**
 * Connects a dataset namespace to its warehouse (PUT /api/v1/warehouses/{namespace}, admins):
 * cleaning a unit of its datasets then deletes and counts the rows there. The namespace must be
 * one the catalog knows; the change and its audit entry commit together.
 */
export async function setWarehouseConnection(
  namespace: string,
  body: { connection: WarehouseConnection; reason: string },
  actor: Actor,
  now = new Date(),
  db: Db = getDb(),
): Promise<WarehouseConnectionView> {
  if (body.connection.kind === "postgresql") requireAllowedSecret(body.connection.url, "body.connection.url");
  if (!(await datasetNamespaces(db)).includes(namespace))
    throw new NotFoundError(`no dataset has the namespace ${namespace} (GET /api/v1/warehouses lists them)`);
  const before = await findWarehouse(db, namespace);
  await inTransaction(db, async (tx) => {
    await saveWarehouse(tx, namespace, body.connection, actor.id, now);
    await appendAudit(
      tx,
      {
        kind: "warehouse.connection_set",
        actor: actor.id,
        actorRole: actor.role,
        reason: body.reason,
        before: { namespace, connection: before ? { ...before.connection } : null },
        after: { namespace, connection: { ...body.connection } },
      },
      now,
    );
  });
  return view(namespace, await findWarehouse(db, namespace), actor);
}
