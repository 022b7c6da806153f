import { resolvePartitions } from "@/lib/domain/partitions";
import type { DatasetOption } from "@/lib/contracts/completeness";
import { getDb, type Db } from "../repositories/database";
import { listDatasets } from "../repositories/lineage/catalog-reads";

/** The datasets an analyst can ask about, with the first and last expected key to bound a period. */
export async function listDatasetOptions(now: Date, db: Db = getDb()): Promise<{ datasets: DatasetOption[] }> {
  const datasets = await listDatasets(db);
  return {
    datasets: datasets.map((d) => {
      let firstKey: string | null = null;
      let lastKey: string | null = null;
      try {
        const space = resolvePartitions(d.partitionDef, { asOf: now.getTime() });
        if (!space.expected.isEmpty) [firstKey, lastKey] = [space.keyAt(space.expected.min!), space.keyAt(space.expected.max!)];
      } catch {
        // an open-ended definition that cannot be resolved has no period to offer
      }
      return { nodeId: d.nodeId, name: d.name, pipeline: d.pipeline, grain: d.partitionDef.kind === "time" ? d.partitionDef.grain : null, firstKey, lastKey };
    }),
  };
}
