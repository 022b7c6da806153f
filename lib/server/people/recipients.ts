import type { Channel } from "@/lib/contracts/people";
import { ownersOfNode, recipientsOf, type ContactOf, type OwnerFact } from "@/lib/domain/recipients";
import type { Db } from "../repositories/database";
import { nodeOwnership } from "../repositories/people/node-ownership";
import { listConsumers, listTeams } from "../repositories/people/teams-and-consumers";

/**
 * Someone to tell about some nodes of the lineage: an owner (a team or a person named as the
 * owner of a task, a dataset or a pipeline) or a declared consumer (a dashboard, an export's
 * recipient, a model team), with the people and the channel to reach them.
 */
export interface Recipient {
  /** Stable: `owner:<name>`, or a consumer's node id `consumer:<id>`. */
  key: string;
  /** "finance-team", "Finance ledger (export recipient)". */
  name: string;
  role: "owner" | "consumer";
  consumerKind?: "dashboard" | "export_recipient" | "model_team" | "other";
  people: string[];
  /** Null: no channel declared (the notifier then uses REPARO_NOTIFY_WEBHOOK_URL). */
  channel: Channel | null;
  /** Which of the given nodes this recipient owns or reads. */
  nodeIds: string[];
}

/**
 * Everyone who owns or reads one of `nodeIds` (an incident's closure, a dataset): owners from the
 * catalog (lib/domain/recipients.ts says which fact wins), their people and channel from the
 * declared teams, then the declared consumers reading them.
 */
export async function recipientsOfNodes(db: Db, nodeIds: readonly string[], signal?: AbortSignal): Promise<Recipient[]> {
  if (nodeIds.length === 0) return [];
  const [owners, teams, consumers] = await Promise.all([ownersOfNodes(db, nodeIds, signal), listTeams(db), listConsumers(db)]);
  return recipientsOf(nodeIds, owners, new Map<string, ContactOf<Channel>>(teams.map((t) => [t.name, t])), consumers);
}

/** Each node's owners with where they were found (nodes nobody owns are absent). */
export async function ownersOfNodes(db: Db, nodeIds: readonly string[], signal?: AbortSignal): Promise<Map<string, OwnerFact[]>> {
  const out = new Map<string, OwnerFact[]>();
  for (const o of await nodeOwnership(db, nodeIds, signal)) {
    const owners = ownersOfNode(o);
    if (owners.length > 0) out.set(o.nodeId, owners);
  }
  return out;
}
