import { z } from "zod";
import type { AuditTarget } from "@/lib/contracts/audit";
import { nodeName } from "@/lib/domain/ids";
import type { AffectedNode, DeliveryFact, NoticeFacts } from "@/lib/domain/notice-draft";
import { planRepair } from "@/lib/domain/repair-planner";
import { toKeyRanges } from "@/lib/domain/unit-set";
import type { Db } from "../repositories/database";
import { allDeliveries } from "../repositories/ledger/external-deliveries";
import { currentPlan } from "../repositories/repair/repair-plans";
import { incidentTargets } from "../repair/incident-targets";
import { loadRepairContext } from "../repair/load-repair-context";
import { incidentPlanEta } from "../repair/plan-eta";

/** What a notice is drafted from besides the event: everything but who it is for. */
export type IncidentFacts = Omit<NoticeFacts, "event" | "closedReason">;

export interface GatheredFacts {
  facts: IncidentFacts;
  /** Whether a unit key lies in key ranges of a node, in the node's own order (a static partition's is not the alphabet's). */
  within: (nodeId: string, ranges: readonly [string, string][], key: string) => boolean;
}

/** Only what a message says of a stored plan: it is read back from the confirmed plan's view. */
const StoredPlanSchema = z.object({ waves: z.array(z.array(z.unknown())), cost: z.object({ unitsRecomputed: z.number().int() }) });

/**
 * The incident's facts as its notices say them: the downstream closure of its failed pairs (the
 * planner's, so a notice names exactly what the Scope step shows), each unit already delivered
 * outside that the closure reaches, and the confirmed plan if there is one.
 */
export async function incidentFacts(
  db: Db,
  incident: { id: string | null; title: string; detectedAt: Date; failedPairs: AuditTarget[]; severity?: string | null },
  now: Date,
): Promise<GatheredFacts> {
  const [ctx, deliveries, stored] = await Promise.all([loadRepairContext(db, now), allDeliveries(db), incident.id ? currentPlan(db, incident.id) : null]);
  const { scope } = planRepair({ graph: ctx.graph, targets: incidentTargets(incident), ledger: ctx.ledger });
  const affected: AffectedNode[] = [...scope.entries.values()].map((e) => {
    const node = ctx.graph.nodes[ctx.graph.index.get(e.node)!]!;
    return { nodeId: e.node, name: nodeName(e.node), units: toKeyRanges(e.units, node.space) };
  });
  const taskNodeOf = new Map([...ctx.tasks.values()].map((t) => [t.id, t.nodeId]));
  const reached: DeliveryFact[] = [];
  for (const d of deliveries) {
    const taskNode = taskNodeOf.get(d.taskId);
    const entry = taskNode ? scope.entries.get(taskNode as never) : undefined;
    if (!taskNode || !entry) continue;
    const node = ctx.graph.nodes[ctx.graph.index.get(entry.node)!]!;
    const v = node.space.validate(d.unitKey);
    if (!v.valid || !entry.units.contains(v.ordinal)) continue;
    const output = ctx.outputOf.get(taskNode)?.nodeId;
    reached.push({ nodeIds: output ? [taskNode, output] : [taskNode], unitKey: d.unitKey, destination: withoutCredentials(d.destination), sentAt: d.sentAt });
  }
  const parsed = stored ? StoredPlanSchema.safeParse(stored.plan) : null;
  const eta = stored && incident.id ? await incidentPlanEta(db, incident.id, now) : null;
  const within = (nodeId: string, ranges: readonly [string, string][], key: string) => {
    const i = ctx.graph.index.get(nodeId as never);
    if (i === undefined) return false;
    const space = ctx.graph.nodes[i]!.space;
    const at = space.validate(key);
    if (!at.valid) return false;
    return ranges.some(([a, b]) => {
      const lo = space.validate(a);
      const hi = space.validate(b);
      return lo.valid && hi.valid && lo.ordinal <= at.ordinal && at.ordinal <= hi.ordinal;
    });
  };
  const facts: IncidentFacts = {
    title: incident.title,
    detectedAt: incident.detectedAt,
    severity: incident.severity ?? null,
    affected,
    deliveries: reached,
    plan:
      stored && parsed?.success
        ? {
            strategy: stored.strategy,
            waves: parsed.data.waves.length,
            unitsRecomputed: parsed.data.cost.unitsRecomputed,
            etaAt: eta?.at ?? null,
            etaBasis: eta?.basis ?? null,
          }
        : null,
  };
  return { facts, within };
}

/**
 * A destination as a message may say it: never the user and password an export's URL may carry,
 * nor its query (a pre-signed S3 or SAS URL's signature is there) — the guard's text is read by viewers.
 */
function withoutCredentials(destination: string): string {
  try {
    const u = new URL(destination);
    if (!u.username && !u.password && !u.search && !u.hash) return destination;
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString();
  } catch {
    return destination;
  }
}
