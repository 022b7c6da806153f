import type { Tx } from "../repositories/database";
import { ConflictError, NotFoundError } from "@/lib/domain/errors";
import { parseNodeId } from "@/lib/domain/ids";
import { datasetsMatching, tasksMatching } from "../repositories/lineage/declared-properties";
import { ensureDatasets, ensureTasks } from "../repositories/lineage/catalog-writes";
import { nodeIdCandidates } from "./node-id-candidates";

/** The one task or dataset a path `{id}` names: 404 when none, 409 when `<namespace>/<name>` is ambiguous. */
export async function findNode(tx: Tx, kind: "job" | "dataset", id: string): Promise<{ id: string; nodeId: string }> {
  const candidates = nodeIdCandidates(kind, id);
  const rows = await (kind === "job" ? tasksMatching : datasetsMatching)(tx, candidates, id);
  const what = kind === "job" ? "task" : "dataset";
  if (rows.length === 0) throw new NotFoundError(`params.id: no ${what} is named "${id}" (send its node id or <namespace>/<name>, URL-encoded)`);
  if (rows.length > 1) throw new ConflictError(`params.id: "${id}" names several ${what}s (${rows.map((r) => r.nodeId).join(", ")}): send the node id`);
  return rows[0]!;
}

/**
 * The node `{id}` names, creating it when it is a node id of that kind nobody has sent yet: an
 * operator declares a dataset's partitions, or a task's write mode, before its first run (the
 * `<namespace>/<name>` form cannot be split without an existing node, so it must exist).
 */
export async function findOrDeclareNode(tx: Tx, kind: "job" | "dataset", id: string): Promise<{ id: string; nodeId: string; created: boolean }> {
  try {
    return { ...(await findNode(tx, kind, id)), created: false };
  } catch (e) {
    const parsed = parseNodeId(id);
    if (!(e instanceof NotFoundError) || parsed?.kind !== kind) throw e;
    const ref = { nodeId: id, namespace: parsed.namespace, name: parsed.name };
    const made = kind === "job" ? await ensureTasks(tx, [ref]) : await ensureDatasets(tx, [ref]);
    return { id: made.get(id)!.id, nodeId: id, created: true };
  }
}
