"use client";

import { useMutation, useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";
import type { z, ZodType } from "zod";
import {
  CleanUnitBodySchema,
  CommanderBodySchema,
  DeclareCleanedBodySchema,
  DeclareReplaceBodySchema,
  MarkBodySchema,
  NoteBodySchema,
  OpenIncidentSchema,
  ScopeBodySchema,
  SeverityBodySchema,
} from "@/lib/contracts/incidents";
import { DispatchPreviewSchema, DryRunBodySchema } from "@/lib/contracts/orchestrators";
import { TaskPropertiesPutSchema, TaskPropertiesResultSchema } from "@/lib/contracts/ingestion-catalog";
import { ReasonBodySchema } from "@/lib/contracts/reason";
import { OpenedIncidentSchema } from "@/lib/contracts/root-cause";
import {
  CancelRepairResultSchema,
  CleanUnitResultSchema,
  ConfirmPlanSchema,
  DeclareCleanedResultSchema,
  LaunchBodySchema,
  LaunchResultSchema,
  OkSchema,
  PlanOptionsSchema,
} from "@/lib/contracts/repair";
import { describeIssues, fieldIssues } from "@/lib/contracts/field-issues";
import { apiFetch } from "./api-fetch";
import { alertsKeys, auditKeys, completenessKeys, historyKeys, incidentKeys, lineageKeys, overviewKeys, unitKeys } from "./query-keys";

/**
 * What an action changes beyond its incident, so every screen that shows it reads it again (as
 * Airflow 3's useClearTaskInstances invalidates the task instances, the DAG runs and the grid):
 * - `record`: only the incident and the audit log (a reviewed step, a note);
 * - `units`: what units are believed to hold — the matrix, the lineage's holdings, completeness,
 *   the overview's findings and the alerts built on them;
 * - `repairs`: units, and the repair history.
 */
export type ActionEffect = "record" | "units" | "repairs";

/** Reads again every screen an effect reaches (a repair that ended, seen on its progress stream, reaches them all). */
export function invalidateEffect(qc: QueryClient, effect: ActionEffect): Promise<unknown> {
  return Promise.all(keysOf(effect).map((queryKey) => qc.invalidateQueries({ queryKey })));
}

function keysOf(effect: ActionEffect): QueryKey[] {
  const record = [incidentKeys.all, auditKeys.all];
  if (effect === "record") return record;
  const units = [...record, overviewKeys.all, alertsKeys.all, unitKeys.all, lineageKeys.all, completenessKeys.all];
  return effect === "units" ? units : [...units, historyKeys.all];
}

/** The body as the contract has it, or an error naming each field the way the server would (a 400's message). */
function checked<S extends ZodType>(schema: S, input: z.input<S>): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new Error(describeIssues(fieldIssues(parsed.error, "body")));
  return parsed.data;
}

interface ActionSpec<S extends ZodType, R> {
  /** The path under /api/v1/incidents/{id}/. */
  path: string;
  body: S;
  result: ZodType<R>;
  effect: ActionEffect;
}

/**
 * An incident action: its body checked with the contract's request schema before it leaves the
 * browser (the same rule the server applies), its answer parsed with the response schema, and
 * what it changed read again everywhere.
 */
function useIncidentMutation<S extends ZodType, R>(id: string, spec: ActionSpec<S, R>) {
  const qc = useQueryClient();
  return useMutation<R, Error, z.input<S>>({
    mutationFn: (input) => {
      const body = checked(spec.body, input);
      return apiFetch(`/api/v1/incidents/${encodeURIComponent(id)}/${spec.path}`, spec.result, { method: "POST", body: JSON.stringify(body) });
    },
    onSuccess: () => Promise.all(keysOf(spec.effect).map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}

/** Opening an incident: the overview's and the alerts' failures now link to it. */
export function useOpenIncident() {
  const qc = useQueryClient();
  return useMutation<z.output<typeof OpenedIncidentSchema>, Error, z.input<typeof OpenIncidentSchema>>({
    mutationFn: (input) => apiFetch("/api/v1/incidents", OpenedIncidentSchema, { method: "POST", body: JSON.stringify(checked(OpenIncidentSchema, input)) }),
    onSuccess: () => Promise.all([...keysOf("record"), overviewKeys.all, alertsKeys.all].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}

/**
 * Declaring a fact of a task the planner holds back (PUT /api/v1/tasks/{id}): the plan, its
 * preconditions and how its units are judged (a write mode decides duplicate or republish) change.
 */
export function useDeclareTaskFacts() {
  const qc = useQueryClient();
  return useMutation<z.output<typeof TaskPropertiesResultSchema>, Error, { taskNodeId: string } & z.input<typeof TaskPropertiesPutSchema>>({
    mutationFn: ({ taskNodeId, ...input }) =>
      apiFetch(`/api/v1/tasks/${encodeURIComponent(taskNodeId)}`, TaskPropertiesResultSchema, {
        method: "PUT",
        body: JSON.stringify(checked(TaskPropertiesPutSchema, input)),
      }),
    onSuccess: () => Promise.all(keysOf("units").map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}

// One hook per action. The server's routes take the same schemas (app/api/v1/incidents/[id]/*).
export const useRecordScope = (id: string) => useIncidentMutation(id, { path: "scope", body: ScopeBodySchema, result: OkSchema, effect: "record" });
export const useRecordPreconditions = (id: string) =>
  useIncidentMutation(id, { path: "preconditions", body: ReasonBodySchema, result: OkSchema, effect: "record" });
export const useConfirmPlan = (id: string) => useIncidentMutation(id, { path: "plan", body: ConfirmPlanSchema, result: OkSchema, effect: "record" });
export const usePlanDryRun = (id: string) =>
  useIncidentMutation(id, { path: "plan/dry-run", body: PlanOptionsSchema, result: DispatchPreviewSchema, effect: "record" });
export const useDispatchDryRun = (id: string) =>
  useIncidentMutation(id, { path: "dry-run", body: DryRunBodySchema, result: DispatchPreviewSchema, effect: "record" });
export const useLaunchRepair = (id: string) =>
  useIncidentMutation(id, { path: "launch", body: LaunchBodySchema, result: LaunchResultSchema, effect: "repairs" });
export const useCancelRepair = (id: string) =>
  useIncidentMutation(id, { path: "cancel-repair", body: ReasonBodySchema, result: CancelRepairResultSchema, effect: "repairs" });
export const useCleanUnit = (id: string) =>
  useIncidentMutation(id, { path: "clean-unit", body: CleanUnitBodySchema, result: CleanUnitResultSchema, effect: "units" });
export const useDeclareCleaned = (id: string) =>
  useIncidentMutation(id, { path: "declare-cleaned", body: DeclareCleanedBodySchema, result: DeclareCleanedResultSchema, effect: "units" });
export const useDeclareReplace = (id: string) =>
  useIncidentMutation(id, { path: "declare-replace", body: DeclareReplaceBodySchema, result: OkSchema, effect: "units" });
export const useMarkUnits = (id: string) => useIncidentMutation(id, { path: "marks", body: MarkBodySchema, result: OkSchema, effect: "units" });
export const useResolveIncident = (id: string) => useIncidentMutation(id, { path: "resolve", body: ReasonBodySchema, result: OkSchema, effect: "repairs" });
export const useOverrideValidation = (id: string) => useIncidentMutation(id, { path: "override", body: ReasonBodySchema, result: OkSchema, effect: "repairs" });
export const useAbandonIncident = (id: string) => useIncidentMutation(id, { path: "abandon", body: ReasonBodySchema, result: OkSchema, effect: "repairs" });
export const useAddNote = (id: string) => useIncidentMutation(id, { path: "notes", body: NoteBodySchema, result: OkSchema, effect: "record" });
// The incident as people run it: the list shows the severity and commander, so `record` (incidents and the audit log) covers them.
export const useSetSeverity = (id: string) => useIncidentMutation(id, { path: "severity", body: SeverityBodySchema, result: OkSchema, effect: "record" });
export const useAssignCommander = (id: string) => useIncidentMutation(id, { path: "commander", body: CommanderBodySchema, result: OkSchema, effect: "record" });
