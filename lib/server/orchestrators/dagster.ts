import type { ZodType } from "zod";
import type { DagsterConnection, PlannedRequest } from "@/lib/contracts/orchestrators";
import { errorText, expectStatus, requestJson } from "./http";
import {
  OrchestratorError,
  type DispatchPlan,
  type Orchestrator,
  type OrchestratorCall,
  type OrchestratorItem,
  type PairProgress,
  type PairRef,
  type PairStatus,
  type TaskFacts,
  type Unsupported,
  type WaveHandle,
} from "./port";
import { readSecret } from "./secrets";

/**
 * The Dagster adapter: a repair wave is one asset backfill per distinct partition set,
 * `launchPartitionBackfill(backfillParams: LaunchBackfillParams!)` on the webserver's GraphQL
 * endpoint (`${baseUrl}/graphql`), with the wave's exact assets in `assetSelection` and
 * `fromFailure: false` — no "downstream" selection: Reparo already lists the closure, and
 * Dagster's own would pull the excluded side-effecting assets back in.
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
const previewQuery = (backfills: number): string => {
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
interface PlannedBackfill {
  readonly wave: number;
  readonly pipeline: string;
  readonly pairs: readonly PairRef[];
  readonly params: DagsterBackfillParams;
}

interface GraphQLAnswer<T> {
  readonly data?: T | null;
  readonly errors?: readonly { message?: string }[];
}

interface UnionMember {
  readonly __typename: string;
  readonly message?: string;
}

type LaunchResult = UnionMember & { backfillId?: string; partitionKeys?: string[]; invalidStepKey?: string; stepKey?: string; errors?: { message: string }[] };

interface AssetKeyOut {
  readonly path: readonly string[];
}

interface PreviewData {
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

type BackfillOrError = UnionMember & {
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

const keyOf = (path: readonly string[]): string => JSON.stringify(path);

/** BulkActionStatus values after which a backfill launches nothing more. */
const BACKFILL_DONE = new Set(["COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"]);

/** RunStatus → the pair's status. */
function runPairStatus(status: string): PairStatus {
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

/**
 * The one transport to a Dagster webserver's GraphQL endpoint (`${baseUrl}/graphql`), shared by
 * the repair adapter and the Dagster source (lib/server/sources/dagster): the Dagster+ token read
 * from its named secret for each request and never kept, HTTP 200 with `data` and no `errors`
 * required, and every answer returned with its call as the audit log and the source's log record
 * it (method, URL, status, ids — never a header). With `check`, the data must match it or the
 * whole answer is refused, naming the first field that does not.
 */
export function dagsterTransport(connection: Pick<DagsterConnection, "baseUrl" | "credentials">) {
  const endpoint = `${connection.baseUrl}/graphql`;
  /** Request headers: the Dagster+ user token when the connection names one (read now, never kept). */
  async function headers(what: string): Promise<Record<string, string>> {
    if (!connection.credentials) return {};
    try {
      return { "Dagster-Cloud-Api-Token": await readSecret(connection.credentials) };
    } catch (e) {
      const message = (e as Error).message;
      throw new OrchestratorError(`${what}: ${message}`, { orchestrator: "dagster", method: "POST", url: endpoint, status: null, error: message });
    }
  }

  /** One GraphQL operation: HTTP 200 with `data` and no `errors`, else an OrchestratorError carrying the call. */
  async function graphql<T>(
    query: string,
    variables: Record<string, unknown>,
    what: string,
    options: { dryRun?: boolean; check?: ZodType<T> } = {},
  ): Promise<{ data: T; call: OrchestratorCall }> {
    const answer = expectStatus(
      await requestJson<GraphQLAnswer<T>>("dagster", "POST", endpoint, {
        headers: await headers(what),
        body: { query, variables },
        ...(options.dryRun ? { dryRun: true } : {}),
      }),
      [200],
      what,
    );
    const body = answer.body;
    if (body && Array.isArray(body.errors) && body.errors.length > 0) {
      const error = errorText(body);
      throw new OrchestratorError(`${what}: Dagster answered ${error}`, { ...answer.call, error });
    }
    if (!body || typeof body !== "object" || !body.data)
      throw new OrchestratorError(`${what}: Dagster answered without data`, { ...answer.call, error: "no data" });
    if (!options.check) return { data: body.data, call: answer.call };
    const checked = options.check.safeParse(body.data);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const error = `the answer does not match what Reparo reads: data.${issue?.path.map(String).join(".") ?? ""}: ${issue?.message ?? "invalid"}`;
      throw new OrchestratorError(`${what}: ${error}`, { ...answer.call, error });
    }
    return { data: checked.data, call: answer.call };
  }

  return { endpoint, graphql };
}

export function dagsterOrchestrator(connection: DagsterConnection): Orchestrator {
  const { graphql } = dagsterTransport(connection);

  /** The asset key of a task: the connection's mapping (by node id, then name), else its name, split on "/". */
  const assetPath = (task: TaskFacts): string[] => (connection.assets[task.taskNodeId] ?? connection.assets[task.name] ?? task.name).split("/");

  /** Why Dagster cannot run a task of the plan, or null. */
  function unsupportedReason(task: TaskFacts | undefined): string | null {
    if (!task) return "the task is not known to this adapter (no facts in the plan)";
    if (task.sideEffect !== null && task.sideEffect !== "none") {
      return "a deliberate replay of a side-effecting task: a Dagster backfill cannot carry Reparo's idempotency key to the asset; replay it with the local executor or by hand";
    }
    if (assetPath(task).some((segment) => segment.trim() === ""))
      return `the asset key "${assetPath(task).join("/")}" has an empty path segment: set the task's asset on the pipeline's connection`;
    return null;
  }

  /** Per wave: one backfill per (pipeline, distinct set of partition names); the rest is unsupported. */
  function plan(p: DispatchPlan): { backfills: PlannedBackfill[]; unsupported: Unsupported[] } {
    const unsupported = new Map<string, { reason: string; units: string[] }>();
    const perTask = new Map<string, { wave: number; task: TaskFacts; pairs: PairRef[] }>();
    for (const pair of p.pairs) {
      const task = p.tasks.get(pair.taskNodeId);
      const reason = unsupportedReason(task);
      if (reason !== null || !task) {
        const u = unsupported.get(pair.taskNodeId) ?? { reason: reason ?? "unknown task", units: [] };
        u.units.push(pair.unitKey);
        unsupported.set(pair.taskNodeId, u);
        continue;
      }
      const key = `${pair.wave}|${pair.taskNodeId}`;
      const entry = perTask.get(key) ?? { wave: pair.wave, task, pairs: [] };
      entry.pairs.push(pair);
      perTask.set(key, entry);
    }
    const groups = new Map<string, { wave: number; pipeline: string; partitions: string[]; tasks: TaskFacts[]; pairs: PairRef[] }>();
    for (const { wave, task, pairs } of perTask.values()) {
      const partitions = [...new Set(pairs.map((x) => x.unitKey))].sort();
      const key = `${wave}|${task.pipeline}|${JSON.stringify(partitions)}`;
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
          assetSelection: g.tasks.map((t) => ({ path: assetPath(t) })),
          fromFailure: false,
          title: `Reparo repair ${p.repairNumber} of incident ${p.incidentId}, wave ${g.wave + 1} of ${p.waves}`,
          description: `${g.tasks.length} asset(s) × ${g.partitions.length} partition(s) from a Reparo repair plan (run ${p.runId ?? "not yet launched"}); no downstream selection: Reparo lists the exact closure; side-effecting tasks left out on purpose: ${p.excludedTasks.size}.`,
        },
      }));
    return { backfills, unsupported: [...unsupported].map(([taskNodeId, u]) => ({ taskNodeId, units: u.units, reason: u.reason })) };
  }

  /** A non-success member of a result union, in Dagster's words. */
  const memberError = (m: LaunchResult): string =>
    `${m.__typename}: ${m.message ?? (m.partitionKeys ? `partition keys not found: ${m.partitionKeys.join(", ")}` : (m.invalidStepKey ?? m.stepKey ?? m.errors?.map((e) => e.message).join("; ") ?? "error"))}`;

  async function cancelBackfill(backfillId: string): Promise<OrchestratorCall> {
    const { data, call } = await graphql<{ cancelPartitionBackfill: UnionMember & { backfillId?: string } }>(
      CANCEL_BACKFILL_MUTATION,
      { backfillId },
      `cancelling Dagster backfill ${backfillId}`,
    );
    const result = data.cancelPartitionBackfill;
    const withIds: OrchestratorCall = { ...call, ids: { backfillId } };
    if (result.__typename !== "CancelBackfillSuccess") {
      const error = `${result.__typename}: ${result.message ?? "error"}`;
      throw new OrchestratorError(`cancelling Dagster backfill ${backfillId}: ${error}`, { ...withIds, error });
    }
    return withIds;
  }

  /** The export to copy: each backfill's GraphQL request. */
  function requests(p: DispatchPlan): { requests: PlannedRequest[]; unsupported: Unsupported[] } {
    const { backfills, unsupported } = plan(p);
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

  return {
    kind: "dagster",
    blocksDownstream: false,
    requests,

    /**
     * Dagster has no dry run of a backfill, so the preview reads what it would act on: each
     * asset key must be an AssetNode and each planned partition one of its `partitionKeys`;
     * `assetNodeAdditionalRequiredKeys` names assets Dagster must materialize with a selection
     * (a non-subsettable multi-asset): those are `extra`.
     */
    async preview(p) {
      const { backfills, unsupported } = plan(p);
      const { requests: planned } = requests(p);
      if (backfills.length === 0) return { requests: planned, unsupported, extra: [], missing: [], calls: [] };
      const assetKeys = [...new Map(backfills.flatMap((b) => b.params.assetSelection).map((a) => [keyOf(a.path), a])).values()];
      const variables: Record<string, unknown> = { assetKeys };
      backfills.forEach((b, i) => (variables[`selection${i}`] = b.params.assetSelection));
      const { data, call } = await graphql<PreviewData>(previewQuery(backfills.length), variables, "previewing the Dagster backfills", { dryRun: true });
      const nodes = new Map(data.assetNodes.map((n) => [keyOf(n.assetKey.path), n]));
      const missing: PairRef[] = [];
      for (const pair of backfills.flatMap((b) => b.pairs)) {
        const node = nodes.get(keyOf(assetPath(p.tasks.get(pair.taskNodeId)!)));
        if (!node || !node.isPartitioned || !node.partitionKeys.includes(pair.unitKey)) missing.push(pair);
      }
      const byAsset = new Map<string, string>();
      for (const [id, t] of p.tasks) byAsset.set(keyOf(assetPath(t)), id);
      for (const [task, asset] of Object.entries(connection.assets)) if (!byAsset.has(keyOf(asset.split("/")))) byAsset.set(keyOf(asset.split("/")), task);
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
      return { requests: planned, unsupported, extra, missing, calls: [call] };
    },

    /**
     * Launches the wave's backfills, all or none: when one is refused, those already launched
     * are cancelled and the refusal (a non-success LaunchBackfillResult member or GraphQL
     * `errors`) is thrown with its call.
     */
    async dispatchWave(p, wave) {
      const { backfills, unsupported } = plan(p);
      const blocked = unsupported.filter((u) => p.pairs.some((x) => x.wave === wave && x.taskNodeId === u.taskNodeId));
      if (blocked.length > 0) throw new Error(`wave ${wave} has pairs Dagster cannot run: ${blocked.map((u) => `${u.taskNodeId} (${u.reason})`).join("; ")}`);
      const calls: OrchestratorCall[] = [];
      const handle: DagsterWaveHandle = { backfillIds: [], pairsByBackfill: {} };
      for (const b of backfills.filter((x) => x.wave === wave)) {
        try {
          const { data, call } = await graphql<{ launchPartitionBackfill: LaunchResult }>(
            LAUNCH_BACKFILL_MUTATION,
            { backfillParams: b.params },
            `launching a Dagster backfill of wave ${wave}`,
          );
          const result = data.launchPartitionBackfill;
          if (result.__typename !== "LaunchBackfillSuccess" || !result.backfillId) {
            const error = memberError(result);
            throw new OrchestratorError(`launching a Dagster backfill of wave ${wave}: ${error}`, { ...call, error });
          }
          calls.push({ ...call, ids: { backfillId: result.backfillId } });
          handle.backfillIds.push(result.backfillId);
          handle.pairsByBackfill[result.backfillId] = b.pairs.map((x) => [x.taskNodeId, x.unitKey]);
        } catch (e) {
          for (const id of handle.backfillIds) await cancelBackfill(id).catch(() => undefined);
          if (e instanceof OrchestratorError && handle.backfillIds.length > 0) {
            throw new OrchestratorError(`${e.message} (the wave's backfills already launched were cancelled: ${handle.backfillIds.join(", ")})`, e.call);
          }
          throw e;
        }
      }
      return { handle: handle as unknown as WaveHandle, calls };
    },

    /**
     * Each backfill's progress, per pair: an asset whose counts say every targeted partition
     * is materialized has succeeded; otherwise the newest run of the backfill covering the
     * asset and the partition (`dagster/partition` tag, or a partition range) decides; with
     * none, the pair is pending until the backfill is done, then failed.
     */
    async poll(p, _wave, raw) {
      const handle = raw as unknown as DagsterWaveHandle;
      const calls: OrchestratorCall[] = [];
      const pairs: PairProgress[] = [];
      for (const backfillId of handle.backfillIds) {
        const planned = handle.pairsByBackfill[backfillId] ?? [];
        const { data, call } = await graphql<{ partitionBackfillOrError: BackfillOrError }>(
          BACKFILL_PROGRESS_QUERY,
          { backfillId, runLimit: Math.max(100, planned.length * 4) },
          `reading Dagster backfill ${backfillId}`,
        );
        const withIds: OrchestratorCall = { ...call, ids: { backfillId } };
        const b = data.partitionBackfillOrError;
        if (b.__typename !== "PartitionBackfill") {
          const error = `${b.__typename}: ${b.message ?? "error"}`;
          throw new OrchestratorError(`reading Dagster backfill ${backfillId}: ${error}`, { ...withIds, error });
        }
        calls.push(withIds);
        const status = b.status ?? "REQUESTED";
        const counts = new Map((b.assetBackfillData?.assetBackfillStatuses ?? []).map((s) => [keyOf(s.assetKey.path), s]));
        const runs = b.runs ?? [];
        for (const [taskNodeId, unitKey] of planned) {
          const task = p.tasks.get(taskNodeId);
          const asset = keyOf(task ? assetPath(task) : []);
          const count = counts.get(asset);
          if (
            count &&
            count.numPartitionsTargeted !== undefined &&
            count.numPartitionsTargeted > 0 &&
            count.numPartitionsMaterialized === count.numPartitionsTargeted
          ) {
            pairs.push({
              taskNodeId,
              unitKey,
              status: "succeeded",
              externalId: backfillId,
              detail: `backfill ${backfillId}: every targeted partition materialized`,
            });
            continue;
          }
          const run = runs.find((r) => covers(r, asset, unitKey));
          if (run) {
            pairs.push({
              taskNodeId,
              unitKey,
              status: runPairStatus(run.status),
              externalId: run.runId,
              detail: `run ${run.runId} of backfill ${backfillId}: ${run.status}`,
            });
            continue;
          }
          const failed =
            count !== undefined &&
            count.numPartitionsTargeted !== undefined &&
            count.numPartitionsTargeted > 0 &&
            count.numPartitionsFailed === count.numPartitionsTargeted;
          const done = BACKFILL_DONE.has(status);
          pairs.push({
            taskNodeId,
            unitKey,
            externalId: backfillId,
            status: failed || done ? "failed" : "pending",
            detail: failed
              ? `backfill ${backfillId}: every targeted partition failed`
              : done
                ? `backfill ${backfillId} ended (${status}) without a run of this partition`
                : `backfill ${backfillId}: ${status}`,
          });
        }
      }
      return { pairs, calls };
    },

    async cancel(_p, raw) {
      const handle = raw as unknown as DagsterWaveHandle;
      const calls: OrchestratorCall[] = [];
      let first: unknown = null;
      for (const id of handle.backfillIds ?? []) {
        try {
          calls.push(await cancelBackfill(id));
        } catch (e) {
          if (e instanceof OrchestratorError) calls.push(e.call);
          first ??= e;
        }
      }
      if (first) throw first;
      return { calls };
    },
  };
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
