import { formatNodeId, parseNodeId } from "@/lib/domain/ids";
import type { DatasetRef, JobRef } from "@/lib/contracts/ingestion-ledger";
import type { NodeRef } from "../repositories/lineage/catalog-writes";

/**
 * The node a ledger entry names, by node id or by namespace + name; both spell the same id, so
 * an entry and an OpenLineage event about the same table land on one node. Null when a node id
 * does not parse (the caller refuses the entry, naming the field).
 */
export function nodeRefOf(kind: "job" | "dataset", ref: DatasetRef | JobRef): NodeRef | null {
  if ("nodeId" in ref) {
    const parsed = parseNodeId(ref.nodeId);
    if (!parsed || parsed.kind !== kind) return null;
    return { nodeId: formatNodeId(kind, parsed.namespace, parsed.name), namespace: parsed.namespace, name: parsed.name };
  }
  return { nodeId: formatNodeId(kind, ref.namespace, ref.name), namespace: ref.namespace, name: ref.name };
}
