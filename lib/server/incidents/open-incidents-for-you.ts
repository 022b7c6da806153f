import type { AutoOpened } from "@/lib/contracts/auto-incidents";
import type { Actor } from "../auth/roles";
import { readAlertConfig, type AlertConfig } from "../alerts/alert-config";
import { evaluateAlertsWithStatus } from "../alerts/evaluate-alerts-now";
import { groupAlerts } from "../alerts/group-alerts";
import { loadLineageGraph } from "../lineage/load-lineage-graph";
import { getDb, type Db } from "../repositories/database";
import { pairsHeldByOpenIncidents } from "../repositories/incidents/incidents";
import { pipelinesWithAutoIncidents } from "../repositories/pipelines/orchestrator-connections";
import { openIncident } from "./open-incident";

/** Who opens them: Reparo itself, on the rule a person turned on (the audit names that person's change). */
export const REPARO_ITSELF: Actor = { id: "reparo", role: "commander", source: "system", namespaces: [] };

/** The open form takes at most 500 units; a root past that is opened on its first 500, the rest said in the reason. */
const MAX_UNITS = 500;

/**
 * Incidents opened for you (issue "Who must know", item 5): for each pipeline that turned it on,
 * every root-cause alert group not yet handled by an open incident, whose root a task of that
 * pipeline writes, opens an incident on its root units — through the same `openIncident` a person
 * uses, so the root-cause walk, the one-incident-per-root rule (never a twin, across consoles:
 * opens are serialised in the database), the audit entry, and what follows an open (severity,
 * owners, notices) are the same. Off by default: nothing is evaluated when no pipeline has it.
 * Run by the `alerts-deliver` job, so within its period (REPARO_ALERT_DELIVER_SECONDS, 60 s).
 */
export async function openIncidentsForYou(now: Date, db: Db = getDb(), config: AlertConfig = readAlertConfig()): Promise<AutoOpened> {
  const result: AutoOpened = { opened: [], left: [] };
  const pipelines = await pipelinesWithAutoIncidents(db);
  if (pipelines.length === 0) return result;
  const wanted = new Map(pipelines.map((p) => [p.id, p.name]));
  const [{ alerts, snapshot, deliveries }, lineage, openIncidents] = await Promise.all([
    evaluateAlertsWithStatus(db, now, config),
    loadLineageGraph(db, now),
    pairsHeldByOpenIncidents(db),
  ]);
  if (alerts.length === 0) return result;
  const groups = groupAlerts(alerts, { ...lineage, snapshot, deliveries, openIncidents });
  for (const group of groups) {
    if (group.handledBy) continue;
    for (const root of group.roots) {
      const task = root.taskNodeId ? lineage.tasks.get(root.taskNodeId) : undefined;
      if (!task?.pipelineId || !wanted.has(task.pipelineId) || root.units.length === 0) continue;
      const units = root.units.slice(0, MAX_UNITS).map((u) => u.key);
      const more = root.units.length - units.length;
      try {
        const opened = await openIncident(
          {
            taskNodeId: task.nodeId,
            units,
            rootCause: "as_given", // the group's roots are its root causes already
            reason: `opened by Reparo for the alert group "${group.title}" (${group.members.length} alert${group.members.length === 1 ? "" : "s"}): incidents are opened for pipeline ${wanted.get(task.pipelineId)}${more > 0 ? `; ${more} more units of ${root.name} are left to a later incident` : ""}`,
          },
          REPARO_ITSELF,
          now,
          db,
        );
        if (opened.opened) result.opened.push({ incidentId: opened.id, group: group.title, pipeline: wanted.get(task.pipelineId)! });
        else result.left.push({ group: group.title, why: `held by the open incident ${opened.id}` });
      } catch (e) {
        // One group that cannot be opened (a root no longer in the lineage, a key its space refuses) leaves the others be.
        result.left.push({ group: group.title, why: e instanceof Error ? e.message : String(e) });
      }
    }
  }
  return result;
}
