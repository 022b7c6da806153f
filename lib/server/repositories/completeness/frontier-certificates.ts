import type { Certificate } from "@/lib/domain/frontier";
import crypto from "node:crypto";
import type { Db, Tx } from "../database";
import { insertNew, type Column } from "../sql/bulk-sql";
import { prismaOf } from "../prisma-handle";

const CERTIFICATE_COLUMNS: Column[] = [
  ...["id", "source", "partition", "domain", "token"].map((name): Column => ({ name, type: "text" })),
  { name: "coordinate", type: "float" },
  { name: "inclusive", type: "bool" },
  { name: "generation", type: "int" },
  { name: "epoch", type: "int" },
  { name: "updatedAt", type: "timestamp" },
];

export interface StoredCertificate extends Certificate {
  source: string;
  updatedAt: Date;
}

function toCertificate(r: {
  source: string;
  partition: string;
  coordinate: number | null;
  inclusive: boolean | null;
  domain: string;
  generation: number;
  epoch: number;
  token: string | null;
  updatedAt: Date;
}): StoredCertificate {
  return {
    source: r.source,
    partition: r.partition,
    coordinate: r.coordinate,
    inclusive: r.inclusive,
    domain: r.domain,
    generation: r.generation,
    epoch: r.epoch,
    token: r.token ?? undefined,
    updatedAt: r.updatedAt,
  };
}

export async function listCertificates(db: Db | Tx, source: string): Promise<StoredCertificate[]> {
  const rows = await prismaOf(db).frontierCertificate.findMany({ where: { source }, orderBy: { partition: "asc" } });
  return rows.map(toCertificate);
}

export async function findCertificate(db: Db | Tx, source: string, partition: string): Promise<StoredCertificate | null> {
  const row = await prismaOf(db).frontierCertificate.findUnique({ where: { source_partition: { source, partition } } });
  return row ? toCertificate(row) : null;
}

/**
 * Writes the checkpoint only if the stored generation is still the one the decision was made
 * on (0 = no row yet): the compare-and-swap holds across console instances, not just in memory.
 * Returns false when another writer won in between.
 */
export async function swapCertificate(tx: Tx, source: string, expectedGeneration: number, next: Certificate, at: Date): Promise<boolean> {
  const data = {
    coordinate: next.coordinate,
    inclusive: next.inclusive,
    domain: next.domain,
    generation: next.generation,
    epoch: next.epoch,
    token: next.token ?? null,
    updatedAt: at,
  };
  if (expectedGeneration === 0) {
    // ON CONFLICT DO NOTHING: a concurrent first checkpoint that won is a lost swap, not an error
    // (on PostgreSQL a failed INSERT would abort the whole transaction).
    const inserted = await insertNew(
      tx,
      "FrontierCertificate",
      CERTIFICATE_COLUMNS,
      [{ id: `fc_${crypto.randomUUID()}`, source, partition: next.partition, ...data }],
      "id",
    );
    return inserted.length === 1;
  }
  const res = await prismaOf(tx).frontierCertificate.updateMany({ where: { source, partition: next.partition, generation: expectedGeneration }, data });
  return res.count === 1;
}

export async function listCertificatesOf(db: Db, sources: string[]): Promise<StoredCertificate[]> {
  if (sources.length === 0) return [];
  const rows = await prismaOf(db).frontierCertificate.findMany({ where: { source: { in: sources } }, orderBy: [{ source: "asc" }, { partition: "asc" }] });
  return rows.map(toCertificate);
}
