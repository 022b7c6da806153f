import { mayReplace, type FactSource } from "@/lib/domain/fact-sources";
import type { Tx } from "../database";
import { prismaOf } from "../prisma-handle";
import { parseFactSources } from "../lineage/fact-sources-json";

/** A dataset's own owner and where it came from (null: nobody said). */
export async function datasetOwnersOf(tx: Tx, ids: readonly string[]): Promise<Map<string, { owner: string | null; source: FactSource | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await prismaOf(tx).dataset.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, owner: true, factSources: true } });
  return new Map(rows.map((r) => [r.id, { owner: r.owner || null, source: r.owner ? (parseFactSources(r.factSources).owner ?? null) : null }]));
}

/**
 * Records datasets' owners as one source gives them, by precedence (lib/domain/fact-sources.ts):
 * an owner a better source gave is kept. Writes only the datasets whose owner changes; answers how many.
 */
export async function recordDatasetOwners(tx: Tx, items: readonly { datasetId: string; owner: string; source: FactSource }[]): Promise<number> {
  const held = await datasetOwnersOf(
    tx,
    items.map((i) => i.datasetId),
  );
  let changed = 0;
  for (const item of items) {
    const h = held.get(item.datasetId);
    if (!h || !mayReplace(h.source, item.source) || (h.owner === item.owner && h.source === item.source)) continue;
    await prismaOf(tx).dataset.update({ where: { id: item.datasetId }, data: { owner: item.owner, factSources: JSON.stringify({ owner: item.source }) } });
    held.set(item.datasetId, { owner: item.owner, source: item.source });
    changed++;
  }
  return changed;
}
