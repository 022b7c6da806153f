import type { PlannedRequest } from "@/lib/contracts/orchestrators";
import type { DispatchPlan, OrchestratorItem, PairProgress, PairRef, PairStatus, TaskFacts, Unsupported } from "./port";

/**
 * What Reparo asks a Dagster webserver, as pure functions of the plan and of Dagster's answers
 * (table-tested in dagster-requests.test.ts); dagster.ts sends them through the one transport
 * (dagster-transport.ts). A repair wave is one asset backfill per distinct partition set,
 * `launchPartitionBackfill(backfillParams: LaunchBackfillParams!)`, with the wave's exact assets
 * in `assetSelection` and `fromFailure: false` — no "downstream" selection: Reparo already lists
 * the closure, and Dagster's own would pull the excluded side-effecting assets back in.
 *
 * Contract: Dagster's schema.graphql (test/fixtures/peers/dagster) — LaunchBackfillParams,
 * LaunchBackfillResult (LaunchBackfillSuccess.backfillId | the Error members),
 * Query.assetNodes(assetKeys) { partitionKeys }, Query.assetNodeAdditionalRequiredKeys,
 * Query.partitionBackfillOrError (PartitionBackfill.status: BulkActionStatus,
 * assetBackfillData.assetBackfillStatuses, runs { status tags assetSelection }),
 * Mutation.cancelPartitionBackfill (CancelBackfillResult).
 */

/** `LaunchBackfillParams` as Reparo fills it (the other fields stay unset). */
export interface DagsterBackfillParams {
  readonly partitionNames: string[];
  readonly assetSelection: { readonly path: string[] }[];
  readonly fromFailure: false;
  readonly title: string;
  readonly description: string;
}

export const LAUNCH_BACKFILL_MUTATION = `mutation ReparoLaunchBackfill($backfillParams: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $backfillParams) {
    __typename
    ... on LaunchBackfillSuccess { backfillId launchedRunIds }
    ... on Error { message }
    ... on PartitionKeysNotFoundError { partitionKeys }
    ... on InvalidStepError { invalidStepKey }
    ... on InvalidOutputError { stepKey invalidOutputName }
    ... on RunConfigValidationInvalid { pipelineName errors { message } }
  }
}`;

/** The preview's read: which asset keys exist with which partition keys, and what Dagster adds to each selection. */
export const previewQuery = (backfills: number): string => {
  const vars = Array.from({ length: backfills }, (_, i) => `$selection${i}: [AssetKeyInput!]!`).join(", ");
  const required = Array.from({ length: backfills }, (_, i) => `  required${i}: assetNodeAdditionalRequiredKeys(assetKeys: $selection${i}) { path }`).join(
    "\n",
  );
  return `query ReparoPreviewAssets($assetKeys: [AssetKeyInput!]!${vars ? `, ${vars}` : ""}) {
  assetNodes(assetKeys: $assetKeys) { assetKey { path } isPartitioned partitionKeys }
${required}
}`;
};

export const BACKFILL_PROGRESS_QUERY = `query ReparoBackfillProgress($backfillId: String!, $runLimit: Int) {
  partitionBackfillOrError(backfillId: $backfillId) {
    __typename
    ... on PartitionBackfill {
      id
      status
      assetBackfillData {
        assetBackfillStatuses {
          __typename
          ... on AssetPartitionsStatusCounts { assetKey { path } numPartitionsTargeted numPartitionsInProgress numPartitionsMaterialized numPartitionsFailed }
          ... on UnpartitionedAssetStatus { assetKey { path } inProgress materialized failed }
        }
      }
      runs(limit: $runLimit) { runId status tags { key value } assetSelection { path } }
    }
    ... on Error { message }
  }
}`;

export const CANCEL_BACKFILL_MUTATION = `mutation ReparoCancelBackfill($backfillId: String!) {
  cancelPartitionBackfill(backfillId: $backfillId) {
    __typename
    ... on CancelBackfillSuccess { backfillId }
    ... on Error { message }
  }
}`;

/** Run tags Dagster sets on the runs of an asset backfill (dagster/_core/storage/tags.py). */
const PARTITION_TAG = "dagster/partition";
const RANGE_START_TAG = "dagster/asset_partition_range_start";
const RANGE_END_TAG = "dagster/asset_partition_range_end";

/** One planned backfill: the pairs it runs and its LaunchBackfillParams. */
export interface PlannedBackfill {
  readonly wave: number;
  readonly pipeline: string;
  readonly pairs: readonly PairRef[];
  readonly params: DagsterBackfillParams;
}

export interface UnionMember {
  readonly __typename: string;
  readonly message?: string;
}

export type LaunchResult = UnionMember & {
  backfillId?: string;
  partitionKeys?: string[];
  invalidStepKey?: string;
  stepKey?: string;
  errors?: { message: string }[];
};

interface AssetKeyOut {
  readonly path: readonly string[];
}

export interface PreviewData {
  readonly assetNodes: readonly { assetKey: AssetKeyOut; isPartitioned: boolean; partitionKeys: readonly string[] }[];
  readonly [required: `required${number}`]: readonly AssetKeyOut[];
}

interface BackfillRun {
  readonly runId: string;
  readonly status: string;
  readonly tags: readonly { key: string; value: string }[];
  readonly assetSelection: readonly AssetKeyOut[] | null;
}

interface AssetBackfillStatusOut {
  readonly __typename: string;
  readonly assetKey: AssetKeyOut;
  readonly numPartitionsTargeted?: number;
  readonly numPartitionsInProgress?: number;
  readonly numPartitionsMaterialized?: number;
  readonly numPartitionsFailed?: number;
  readonly inProgress?: boolean;
  readonly materialized?: boolean;
  readonly failed?: boolean;
}

export type BackfillOrError = UnionMember & {
  id?: string;
  status?: string;
  assetBackfillData?: { assetBackfillStatuses: readonly AssetBackfillStatusOut[] } | null;
  runs?: readonly BackfillRun[];
};

/** The handle of a dispatched wave: the backfills and which pairs each runs (JSON). */
export interface DagsterWaveHandle {
  readonly backfillIds: string[];
  readonly pairsByBackfill: Record<string, [taskNodeId: string, unitKey: string][]>;
}

export const keyOf = (path: readonly string[]): string => JSON.stringify(path);

/** BulkActionStatus values after which a backfill launches nothing more. */
const BACKFILL_DONE = new Set(["COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"]);

/** RunStatus → the pair's status. */
export function runPairStatus(status: string): PairStatus {
  switch (status) {
    case "SUCCESS":
      return "succeeded";
    case "FAILURE":
    case "CANCELED":
      return "failed";
    case "STARTED":
    case "CANCELING":
      return "running";
    default:
      return "pending"; // QUEUED, NOT_STARTED, MANAGED, STARTING
  }
}

/** The asset key of a task: the connection's mapping (by node id, then name), else its name, split on "/". */
export const assetPathOf = (assets: Readonly<Record<string, string>>, task: TaskFacts): string[] =>
  (assets[task.taskNodeId] ?? assets[task.name] ?? task.name).split("/");

/** Why Dagster cannot run a task of the plan, or null. */
export function unsupportedReason(assets: Readonly<Record<string, string>>, task: TaskFacts | undefined): string | null {
  if (!task) return "the task is not known to this adapter (no facts in the plan)";
  if (task.sideEffect !== null && task.sideEffect !== "none") {
    return "a deliberate replay of a side-effecting task: a Dagster backfill cannot carry Reparo's idempotency key to the asset; replay it with the local executor or by hand";
  }
  const path = assetPathOf(assets, task);
  if (path.some((segment) => segment.trim() === ""))
    return `the asset key "${path.join("/")}" has an empty path segment: set the task's asset on the pipeline's connection`;
  return null;
}

/** Per wave: one backfill per (pipeline, distinct set of partition names); the rest is unsupported. */
export function planBackfills(p: DispatchPlan, assets: Readonly<Record<string, string>>): { backfills: PlannedBackfill[]; unsupported: Unsupported[] } {
  const unsupported = new Map<string, { reason: string; units: string[] }>();
  const perTask = new Map<string, { wave: number; task: TaskFacts; pairs: PairRef[] }>();
  for (const pair of p.pairs) {
    const task = p.tasks.get(pair.taskNodeId);
    const reason = unsupportedReason(assets, task);
    if (reason !== null || !task) {
      const u = unsupported.get(pair.taskNodeId) ?? { reason: reason ?? "unknown task", units: [] };
      u.units.push(pair.unitKey);
      unsupported.set(pair.taskNodeId, u);
      continue;
    }
    const key = JSON.stringify([pair.wave, pair.taskNodeId]);
    const entry = perTask.get(key) ?? { wave: pair.wave, task, pairs: [] };
    entry.pairs.push(pair);
    perTask.set(key, entry);
  }
  const groups = new Map<string, { wave: number; pipeline: string; partitions: string[]; tasks: TaskFacts[]; pairs: PairRef[] }>();
  for (const { wave, task, pairs } of perTask.values()) {
    const partitions = [...new Set(pairs.map((x) => x.unitKey))].sort();
    const key = JSON.stringify([wave, task.pipeline, partitions]);
    const g = groups.get(key) ?? { wave, pipeline: task.pipeline, partitions, tasks: [], pairs: [] };
    g.tasks.push(task);
    g.pairs.push(...pairs);
    groups.set(key, g);
  }
  const backfills = [...groups.values()]
    .sort((a, b) => a.wave - b.wave)
    .map((g): PlannedBackfill => ({
      wave: g.wave,
      pipeline: g.pipeline,
      pairs: g.pairs,
      params: {
        partitionNames: g.partitions,
        assetSelection: g.tasks.map((t) => ({ path: assetPathOf(assets, t) })),
        fromFailure: false,
        title: `Reparo repair ${p.repairNumber} of incident ${p.incidentId}, wave ${g.wave + 1} of ${p.waves}`,
        description: `${g.tasks.length} asset(s) × ${g.partitions.length} partition(s) from a Reparo repair plan (run ${p.runId ?? "not yet launched"}); no downstream selection: Reparo lists the exact closure; side-effecting tasks left out on purpose: ${p.excludedTasks.size}.`,
      },
    }));
  return { backfills, unsupported: [...unsupported].map(([taskNodeId, u]) => ({ taskNodeId, units: u.units, reason: u.reason })) };
}

/** The export to copy: each backfill's GraphQL request. */
export function launchRequests(p: DispatchPlan, assets: Readonly<Record<string, string>>): { requests: PlannedRequest[]; unsupported: Unsupported[] } {
  const { backfills, unsupported } = planBackfills(p, assets);
  return {
    requests: backfills.map((b) => ({
      orchestrator: "dagster",
      pipeline: b.pipeline,
      wave: b.wave,
      method: "POST",
      path: "/graphql",
      body: { query: LAUNCH_BACKFILL_MUTATION, variables: { backfillParams: b.params } },
    })),
    unsupported,
  };
}

/** The preview's variables: every planned asset key once, and each backfill's selection. */
export function previewVariables(backfills: readonly PlannedBackfill[]): Record<string, unknown> {
  const assetKeys = [...new Map(backfills.flatMap((b) => b.params.assetSelection).map((a) => [keyOf(a.path), a])).values()];
  const variables: Record<string, unknown> = { assetKeys };
  backfills.forEach((b, i) => (variables[`selection${i}`] = b.params.assetSelection));
  return variables;
}

/**
 * What the preview's answer says of the plan: the pairs whose asset or partition Dagster does not
 * have (`missing`), and the assets Dagster would materialize with a selection (`extra`).
 */
export function previewFindings(
  p: DispatchPlan,
  assets: Readonly<Record<string, string>>,
  backfills: readonly PlannedBackfill[],
  data: PreviewData,
): { missing: PairRef[]; extra: OrchestratorItem[] } {
  const nodes = new Map(data.assetNodes.map((n) => [keyOf(n.assetKey.path), n]));
  const missing: PairRef[] = [];
  for (const pair of backfills.flatMap((b) => b.pairs)) {
    const node = nodes.get(keyOf(assetPathOf(assets, p.tasks.get(pair.taskNodeId)!)));
    if (!node || !node.isPartitioned || !node.partitionKeys.includes(pair.unitKey)) missing.push(pair);
  }
  const byAsset = new Map<string, string>();
  for (const [id, t] of p.tasks) byAsset.set(keyOf(assetPathOf(assets, t)), id);
  for (const [task, asset] of Object.entries(assets)) if (!byAsset.has(keyOf(asset.split("/")))) byAsset.set(keyOf(asset.split("/")), task);
  const extra: OrchestratorItem[] = backfills.flatMap((b, i) =>
    (data[`required${i}`] ?? []).flatMap((key) => {
      const taskNodeId = byAsset.get(keyOf(key.path)) ?? null;
      const sideEffect = taskNodeId !== null && (p.excludedTasks.has(taskNodeId) || (p.tasks.get(taskNodeId)?.sideEffect ?? "none") !== "none");
      return b.params.partitionNames.map((unitKey) => ({
        label: `${key.path.join("/")} @ ${unitKey} (materialized with the selection)`,
        taskNodeId,
        unitKey,
        sideEffect,
      }));
    }),
  );
  return { missing, extra };
}

/** What a refused launch's union member means to a commander (Dagster's own words follow). */
const REFUSAL_MEANING: Record<string, string> = {
  UnauthorizedError: "Reparo's token lacks the permission to launch backfills",
  PartitionSetNotFoundError: "Dagster does not know the partition set (the assets or their partitions changed since the dry run?)",
  PythonError: "Dagster's own code raised an error",
  InvalidStepError: "a step of the selection is not in the job",
  InvalidOutputError: "an output of the selection is not in the job",
  RunConflict: "a run of the same selection conflicts",
  ConflictingExecutionParamsError: "the backfill's parameters conflict",
  NoModeProvidedError: "the job needs a mode",
  PresetNotFoundError: "the preset does not exist",
  InvalidSubsetError: "the selection is not a valid subset of the job",
};

/** A refused launch, in plain words: what it means, then Dagster's own (memberError). */
export const refusalMeaning = (m: LaunchResult): string => {
  const meaning = REFUSAL_MEANING[m.__typename];
  return meaning ? `${meaning} (${memberError(m)})` : memberError(m);
};

/** A non-success member of a result union, in Dagster's words. */
export const memberError = (m: LaunchResult): string =>
  `${m.__typename}: ${m.message ?? (m.partitionKeys ? `partition keys not found: ${m.partitionKeys.join(", ")}` : (m.invalidStepKey ?? m.stepKey ?? m.errors?.map((e) => e.message).join("; ") ?? "error"))}`;

/**
 * A backfill's progress, per planned pair: an asset whose counts say every targeted partition is
 * materialized has succeeded; otherwise the newest run of the backfill covering the asset and the
 * partition (`dagster/partition` tag, or a partition range) decides; with none, the pair is
 * pending until the backfill is done, then failed.
 */
export function backfillProgress(
  p: DispatchPlan,
  assets: Readonly<Record<string, string>>,
  backfillId: string,
  planned: readonly [taskNodeId: string, unitKey: string][],
  b: BackfillOrError,
): PairProgress[] {
  const status = b.status ?? "REQUESTED";
  const counts = new Map((b.assetBackfillData?.assetBackfillStatuses ?? []).map((s) => [keyOf(s.assetKey.path), s]));
  const runs = b.runs ?? [];
  return planned.map(([taskNodeId, unitKey]): PairProgress => {
    const task = p.tasks.get(taskNodeId);
    const asset = keyOf(task ? assetPathOf(assets, task) : []);
    const count = counts.get(asset);
    const targeted = count?.numPartitionsTargeted ?? 0;
    if (count && targeted > 0 && count.numPartitionsMaterialized === targeted)
      return { taskNodeId, unitKey, status: "succeeded", externalId: backfillId, detail: `backfill ${backfillId}: every targeted partition materialized` };
    const run = runs.find((r) => covers(r, asset, unitKey));
    if (run)
      return {
        taskNodeId,
        unitKey,
        status: runPairStatus(run.status),
        externalId: run.runId,
        detail: `run ${run.runId} of backfill ${backfillId}: ${run.status}`,
      };
    const failed = count !== undefined && targeted > 0 && count.numPartitionsFailed === targeted;
    const done = BACKFILL_DONE.has(status);
    return {
      taskNodeId,
      unitKey,
      externalId: backfillId,
      status: failed || done ? "failed" : "pending",
      detail: failed
        ? `backfill ${backfillId}: every targeted partition failed`
        : done
          ? `backfill ${backfillId} ended (${status}) without a run of this partition`
          : `backfill ${backfillId}: ${status}`,
    };
  });
}

/**
 * Whether a run of the backfill materializes `asset` at `unitKey`: its assetSelection includes
 * the asset (no selection: every asset of the backfill) and its partition tag is the unit, or
 * its partition range tags enclose it (Dagster's time partition keys of one format sort in time order).
 */
function covers(run: BackfillRun, asset: string, unitKey: string): boolean {
  if (run.assetSelection && !run.assetSelection.some((a) => keyOf(a.path) === asset)) return false;
  const tag = (key: string) => run.tags.find((t) => t.key === key)?.value;
  const partition = tag(PARTITION_TAG);
  if (partition !== undefined) return partition === unitKey;
  const start = tag(RANGE_START_TAG);
  const end = tag(RANGE_END_TAG);
  return start !== undefined && end !== undefined && start <= unitKey && unitKey <= end;
}
