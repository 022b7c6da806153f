import type { IncidentOwner, IncidentSeverity, IncidentSummary } from "@/lib/contracts/incidents";
import type { Db } from "../repositories/database";
import type { IncidentRecord, SeverityBasis } from "../repositories/incidents/incidents";
import { displayNamesOf } from "../repositories/access/users";
import { recipientsOfNodes, type Recipient } from "../people/recipients";

/** What a summary names beside the incident's own row: people's display names and the owners of the nodes it reaches. */
export interface SummaryPeople {
  names: ReadonlyMap<string, string>;
  owners: readonly Recipient[];
}

/** The nodes an incident reaches: those its severity was computed from, else (before severities) its failed tasks. */
function reachedNodes(i: IncidentRecord): string[] {
  return i.severity?.computed.nodes ?? i.failedPairs.map((p) => p.nodeId);
}

/** One read of names and owners for any number of incidents (the list's rows included). */
export async function summaryPeople(db: Db, incidents: readonly IncidentRecord[]): Promise<SummaryPeople> {
  const userIds = [...new Set(incidents.flatMap((i) => [i.commander ?? i.openedBy, ...(i.severity?.set ? [i.severity.set.by] : [])]))];
  const [names, recipients] = await Promise.all([displayNamesOf(db, userIds), recipientsOfNodes(db, [...new Set(incidents.flatMap(reachedNodes))])]);
  return { names, owners: recipients.filter((r) => r.role === "owner") };
}

export function toSummary(i: IncidentRecord, repairs: number, people: SummaryPeople): IncidentSummary {
  const commander = i.commander ?? i.openedBy;
  return {
    id: i.id,
    title: i.title,
    status: i.status,
    pipeline: i.pipeline,
    openedBy: i.openedBy,
    openedAt: i.openedAt.toISOString(),
    detectedAt: i.detectedAt.toISOString(),
    resolvedAt: i.resolvedAt?.toISOString() ?? null,
    closedReason: i.closedReason,
    originRunId: i.originRunId,
    failedPairs: i.failedPairs,
    repairs,
    severity: severityView(i.severity),
    commander: { userId: commander, name: people.names.get(commander) ?? null, assigned: i.commander !== null },
    owners: ownersOf(reachedNodes(i), people.owners),
  };
}

/** A person's choice, when there is one, over the computation — which is shown beside it either way. */
export function severityView(b: SeverityBasis | null): IncidentSeverity | null {
  if (!b) return null;
  const computed = { level: b.computed.level, reasons: b.computed.reasons, at: b.computed.at };
  return b.set
    ? { level: b.set.level, source: "set", reasons: [b.set.reason], setBy: b.set.by, setAt: b.set.at, computed }
    : { level: b.computed.level, source: "computed", reasons: b.computed.reasons, setBy: null, setAt: b.computed.at, computed };
}

/** The owners (lib/server/people/recipients.ts) of the nodes this incident reaches, each with those of its nodes. */
function ownersOf(nodes: readonly string[], owners: readonly Recipient[]): IncidentOwner[] {
  const reached = new Set(nodes);
  return owners
    .map((o) => ({ name: o.name, people: o.people, nodeIds: o.nodeIds.filter((n) => reached.has(n)) }))
    .filter((o) => o.nodeIds.length > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
