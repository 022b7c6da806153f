import type { IncidentSummary, OpenIncidentRequest } from "@/lib/contracts/incidents";
import type { AuditTarget } from "@/lib/contracts/audit";
import type { RootCauseView } from "@/lib/contracts/root-cause";
import { compositeKey } from "@/lib/domain/composite-key";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { InvalidFieldError } from "@/lib/domain/errors";
import { createIncident, lockIncidentOpens, originRunOf, pairsHeldByOpenIncidents } from "../repositories/incidents/incidents";
import { loadLineageGraph } from "../lineage/load-lineage-graph";
import { analyseRootCause, symptomOf, titleOf } from "./root-cause";
import { requireIncident } from "./require-incident";
import { summaryPeople, toSummary } from "./to-summary";
import { assessSeverity } from "./assess-severity";
import { recipientsFrom } from "../notify/incident-recipients";
import { deliverSoon, prepareNoticesForMove, queueNotices } from "../notify/queue-notices";

export interface OpenedIncident extends IncidentSummary {
  /** False: every pair it would hold is held by this open incident already — no twin was made. */
  opened: boolean;
  rootCause: RootCauseView;
}

/**
 * Opens an incident for failed (task, unit) pairs: from a failure on the overview, lineage,
 * units matrix, completeness or an alert, or by hand. Keys are validated against the task's
 * partition definition (an invalid key is a 400 naming it, seed 002).
 *
 * Root cause first: a symptom (a unit built on a wrong upstream unit) is opened on its root
 * causes (root-cause.ts), the symptom kept in the title and the `incident.opened` entry; the
 * caller may ask for the units `as_given`. One open incident per root cause: pairs an open
 * incident already holds are left to it — when that is all of them, the answer is that incident
 * (`opened: false`), never a twin. The origin run is the run the pairs last failed in.
 */
export async function openIncident(req: OpenIncidentRequest, actor: Actor, now = new Date(), db: Db = getDb()): Promise<OpenedIncident> {
  const lineage = await loadLineageGraph(db, now);
  if (!lineage.tasks.has(req.taskNodeId)) throw new InvalidFieldError("body.taskNodeId", `no task ${req.taskNodeId} in the lineage`);
  const symptom = symptomOf(lineage.graph, req.taskNodeId, req.units, "body");
  const rootCause = await analyseRootCause(db, lineage.graph, now, symptom);
  const follow = req.rootCause !== "as_given" && rootCause.followable;
  const asked: AuditTarget[] = follow ? rootCause.proposedPairs : [{ nodeId: req.taskNodeId, units: symptom.keys }];
  const title = req.title?.trim() || (follow ? rootCause.title : titleOf(req.taskNodeId, symptom.keys, rootCause.symptom.wrong, []));
  const first = lineage.tasks.get(asked[0]!.nodeId)!;
  const origin = await originRunOf(db, first.id, asked[0]!.units);
  const detectedAt = origin?.startedAt ?? now;
  // Computed before the transaction (the closure's reads are many, and SQLite's write transaction is
  // exclusive), on the pairs it will hold unless another open takes some meanwhile — then on a few
  // more, until the scope recomputes it. The commander (the opener, by default) may set it otherwise.
  const computed = await assessSeverity(db, { failedPairs: unheld(asked, heldPairs(await pairsHeldByOpenIncidents(db))), detectedAt }, now);
  // Who must know, drafted from the pairs asked; written with the incident, sent after the commit.
  const notices = await prepareNoticesForMove(db, { id: null, title, detectedAt, failedPairs: asked, severity: computed.level }, recipientsFrom(db), {
    event: "opened",
    actor,
    now,
  });
  const { record, opened } = await inTransaction(db, async (tx) => {
    await lockIncidentOpens(tx);
    // Checked in the transaction: what another open took meanwhile is left to it.
    const held = heldPairs(await pairsHeldByOpenIncidents(tx));
    const failedPairs = unheld(asked, held);
    if (failedPairs.length === 0) {
      const existing = await requireIncident(tx, held.get(compositeKey(asked[0]!.nodeId, asked[0]!.units[0]!))!);
      return { record: existing, opened: false };
    }
    const created = await createIncident(tx, {
      title,
      pipelineId: origin?.pipelineId ?? first.pipelineId,
      originRunId: origin?.id ?? null,
      failedPairs,
      openedBy: actor.id,
      detectedAt,
      openedAt: now,
      severity: { computed, set: null },
    });
    const fromSymptom = !samePairs(failedPairs, [{ nodeId: req.taskNodeId, units: symptom.keys }]);
    await appendAudit(
      tx,
      {
        kind: "incident.opened",
        actor: actor.id,
        actorRole: actor.role,
        reason: req.reason,
        incidentId: created.id,
        targets: failedPairs,
        before: null,
        after: {
          status: "open",
          title,
          failedPairs,
          severity: { level: computed.level, reasons: computed.reasons },
          // What it was opened from, when that is not what it holds: the symptom stays in the timeline.
          ...(fromSymptom
            ? { symptom: { nodeId: req.taskNodeId, units: symptom.keys, states: rootCause.symptom.wrong.map((w) => `${w.key} ${w.words}`) } }
            : {}),
        },
      },
      now,
    );
    if (notices) await queueNotices(tx, created.id, notices(created.id), actor, now);
    return { record: created, opened: true };
  });
  if (opened && notices) deliverSoon();
  // Named after the commit: who owns what it reaches is read on the console's connection, not the write transaction's.
  return { ...toSummary(record, 0, await summaryPeople(db, [record])), opened, rootCause };
}

/** Each (task, unit) an open incident holds, to the incident holding it. */
function heldPairs(open: { id: string; failedPairs: AuditTarget[] }[]): Map<string, string> {
  return new Map(open.flatMap((i) => i.failedPairs.flatMap((p) => p.units.map((u) => [compositeKey(p.nodeId, u), i.id] as const))));
}

/** The pairs asked that no open incident holds (an empty list: all are held). */
function unheld(asked: AuditTarget[], held: ReadonlyMap<string, string>): AuditTarget[] {
  return asked.map((p) => ({ nodeId: p.nodeId, units: p.units.filter((u) => !held.has(compositeKey(p.nodeId, u))) })).filter((p) => p.units.length > 0);
}

function samePairs(a: readonly AuditTarget[], b: readonly AuditTarget[]): boolean {
  const keys = (x: readonly AuditTarget[]) =>
    x
      .flatMap((p) => p.units.map((u) => compositeKey(p.nodeId, u)))
      .sort()
      .join("\n");
  return keys(a) === keys(b);
}
