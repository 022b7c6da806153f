import { isUniqueViolation } from "../../db/db-errors";
import { inTransaction, type Db } from "../database";
import { chunked } from "../sql/chunked";
import { prismaOf } from "../prisma-handle";

/**
 * The kept unit states: one header row per database (what they were computed under, and the
 * datasets kept) and one row per dataset (UnitStateKept), each body the use case's JSON.
 */
const ID = "current";

export async function readUnitStateSnapshot(db: Db): Promise<{ body: string; computedAt: Date } | null> {
  return prismaOf(db).unitStateSnapshot.findUnique({ where: { id: ID }, select: { body: true, computedAt: true } });
}

/** Up to `limit` kept datasets after `afterId`, in id order: a reader takes them up page by page. */
export async function readKeptDatasets(db: Db, afterId: string | null, limit: number): Promise<{ datasetId: string; body: string }[]> {
  return prismaOf(db).unitStateKept.findMany({
    where: afterId === null ? {} : { datasetId: { gt: afterId } },
    orderBy: { datasetId: "asc" },
    take: limit,
    select: { datasetId: true, body: true },
  });
}

/** Rows per statement: a dataset's body is ~18 KB on average at 10,950,000 units (3,000 datasets). */
const ROWS_PER_STATEMENT = 100;

/**
 * Keeps the header, the datasets whose states changed (`changed`) and forgets the kept datasets
 * no longer listed (`datasetIds`), in one transaction: a reader never finds a header without the
 * rows it lists, whatever console wrote them. A first keep of a big world writes every dataset.
 * Only over the header `over` (null: none kept yet): false, and nothing written, when another
 * console kept its states since the caller read it.
 */
export async function writeUnitStateSnapshot(
  db: Db,
  header: string,
  computedAt: Date,
  changed: { datasetId: string; body: string }[],
  datasetIds: readonly string[],
  over: string | null,
): Promise<boolean> {
  return inTransaction(
    db,
    async (tx) => {
      const client = prismaOf(tx);
      if (over === null) {
        if ((await client.unitStateSnapshot.count({ where: { id: ID } })) > 0) return false;
        await client.unitStateSnapshot.create({ data: { id: ID, body: header, computedAt } });
        // The row lock of this update orders consoles keeping at once: the second finds the header moved.
      } else if ((await client.unitStateSnapshot.updateMany({ where: { id: ID, body: over }, data: { body: header, computedAt } })).count === 0) return false;
      for (const rows of chunked(changed, ROWS_PER_STATEMENT)) {
        await client.unitStateKept.deleteMany({ where: { datasetId: { in: rows.map((r) => r.datasetId) } } });
        await client.unitStateKept.createMany({ data: rows });
      }
      const listed = new Set(datasetIds);
      const gone = (await client.unitStateKept.findMany({ select: { datasetId: true } })).map((r) => r.datasetId).filter((id) => !listed.has(id));
      for (const ids of chunked(gone, 1_000)) await client.unitStateKept.deleteMany({ where: { datasetId: { in: ids } } });
      return true;
    },
    // A first keep of 10,950,000 units writes ~53 MB.
    { timeout: 300_000, maxWait: 30_000 },
  ).catch((e: unknown) => {
    // Two consoles keeping a first header at once: both counted none, the second's insert meets
    // the first's row. That is "another console kept its states", not a failure.
    if (over === null && isUniqueViolation(e)) return false;
    throw e;
  });
}

/** Forgets the kept states (a bench's first start with nothing kept). */
export async function forgetUnitStateSnapshot(db: Db): Promise<void> {
  await inTransaction(db, async (tx) => {
    await prismaOf(tx).unitStateSnapshot.deleteMany({});
    await prismaOf(tx).unitStateKept.deleteMany({});
  });
}
