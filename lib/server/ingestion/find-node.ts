import type { Tx } from "../db/client";
import { ConflictError, NotFoundError } from "../http/errors";
import { datasetsMatching, tasksMatching } from "../repositories/catalog-updates";
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
