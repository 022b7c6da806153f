import type { ClosureQuery } from "@/lib/contracts/lineage";
import type { ClosurePeople, NodePeople, RecipientView } from "@/lib/contracts/owners";
import { describeOwnerFact } from "@/lib/domain/recipients";
import { getDb, type Db } from "../repositories/database";
import { resolveClosure } from "../lineage/resolve-closure";
import { HttpError } from "../http/errors";
import { ownersOfNodes, recipientsOfNodes, type Recipient } from "./recipients";

/** A node's owners, each with where it was found, and the consumers reading it. */
export async function getNodePeople(nodeId: string, db: Db = getDb()): Promise<NodePeople> {
  const [owners, recipients] = await Promise.all([ownersOfNodes(db, [nodeId]), recipientsOfNodes(db, [nodeId])]);
  return {
    nodeId,
    owners: (owners.get(nodeId) ?? []).map((o) => ({ name: o.name, from: describeOwnerFact(o) })),
    readBy: recipients.filter((r) => r.role === "consumer" && r.key !== nodeId).map(toView),
  };
}

/**
 * GET /api/v1/lineage-graph/people: the selected node's people and everyone its closure reaches
 * (each owner once with the nodes it owns, then the consumers reading them). The owners of a
 * 45,000-node closure are four flat reads of the catalog (node-ownership.ts); when the page no
 * longer waits for them (the selection moved on, lib/client/use-people.ts) a question stops
 * before its reads (499) instead of holding up the next click's closure (docs/lineage.md).
 */
export async function getClosurePeople(query: ClosureQuery, now: Date, db: Db = getDb(), signal?: AbortSignal): Promise<ClosurePeople> {
  // The closure's nodes only (the walk the click made is kept): its answer in words and units, a
  // third of a second at 45,000 nodes, says nothing about people. The consumers reading them are
  // found by recipientsOfNodes, as the closure's answer finds them.
  const { result } = await resolveClosure(db, {
    nodeId: query.nodeId,
    units: query.units,
    direction: query.direction,
    asOf: query.asOf ? new Date(query.asOf) : now,
  });
  try {
    const [node, recipients] = await Promise.all([getNodePeople(query.nodeId, db), recipientsOfNodes(db, [...result.entries.keys()], signal)]);
    return { node, recipients: recipients.map(toView) };
  } catch (e) {
    if (signal?.aborted) throw new HttpError(499, "client_closed_request", "the page no longer waits for these people");
    throw e;
  }
}

export function toView(r: Recipient): RecipientView {
  return {
    key: r.key,
    name: r.name,
    role: r.role,
    consumerKind: r.consumerKind ?? null,
    people: r.people,
    channel: r.channel?.kind ?? null,
    nodeIds: r.nodeIds,
  };
}
