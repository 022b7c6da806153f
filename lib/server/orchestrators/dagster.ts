import type { DagsterConnection } from "@/lib/contracts/orchestrators";
import {
  BACKFILL_PROGRESS_QUERY,
  CANCEL_BACKFILL_MUTATION,
  LAUNCH_BACKFILL_MUTATION,
  backfillProgress,
  launchRequests,
  memberError,
  refusalMeaning,
  planBackfills,
  previewFindings,
  previewQuery,
  previewVariables,
  type BackfillOrError,
  type DagsterWaveHandle,
  type LaunchResult,
  type PreviewData,
  type UnionMember,
} from "./dagster-requests";
import { dagsterTransport } from "./dagster-transport";
import { peerAt } from "./fault-words";
import { OrchestratorError, type Orchestrator, type OrchestratorCall, type PairProgress, type WaveHandle } from "./port";

export type { DagsterBackfillParams, DagsterWaveHandle } from "./dagster-requests";
export { BACKFILL_PROGRESS_QUERY, CANCEL_BACKFILL_MUTATION, LAUNCH_BACKFILL_MUTATION } from "./dagster-requests";

/**
 * The Dagster adapter: what it asks is built by the pure functions of dagster-requests.ts (one
 * asset backfill per wave and distinct partition set, the exact closure, no downstream
 * selection); this file sends it through the one transport (dagster-transport.ts), which records
 * each call for the audit log.
 */
export function dagsterOrchestrator(connection: DagsterConnection): Orchestrator {
  const { graphql } = dagsterTransport(connection);
  const assets = connection.assets;

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

  return {
    kind: "dagster",
    blocksDownstream: false,
    requests: (p) => launchRequests(p, assets),

    /**
     * Dagster has no dry run of a backfill, so the preview reads what it would act on: each
     * asset key must be an AssetNode and each planned partition one of its `partitionKeys`;
     * `assetNodeAdditionalRequiredKeys` names assets Dagster must materialize with a selection
     * (a non-subsettable multi-asset): those are `extra`.
     */
    async preview(p) {
      const { backfills, unsupported } = planBackfills(p, assets);
      const { requests: planned } = launchRequests(p, assets);
      if (backfills.length === 0) return { requests: planned, unsupported, extra: [], missing: [], calls: [] };
      const { data, call } = await graphql<PreviewData>(previewQuery(backfills.length), previewVariables(backfills), "previewing the Dagster backfills", {
        dryRun: true,
      });
      const { missing, extra } = previewFindings(p, assets, backfills, data);
      return { requests: planned, unsupported, extra, missing, calls: [call] };
    },

    /**
     * Launches the wave's backfills, all or none: when one is refused, those already launched
     * are cancelled and the refusal (a non-success LaunchBackfillResult member or GraphQL
     * `errors`) is thrown with its call.
     */
    async dispatchWave(p, wave) {
      const { backfills, unsupported } = planBackfills(p, assets);
      const blocked = unsupported.filter((u) => p.pairs.some((x) => x.wave === wave && x.taskNodeId === u.taskNodeId));
      if (blocked.length > 0) throw new Error(`wave ${wave} has pairs Dagster cannot run: ${blocked.map((u) => `${u.taskNodeId} (${u.reason})`).join("; ")}`);
      const calls: OrchestratorCall[] = [];
      const handle: DagsterWaveHandle = { backfillIds: [], pairsByBackfill: {} };
      for (const b of backfills.filter((x) => x.wave === wave)) {
        try {
          const { data, call } = await graphql<{ launchPartitionBackfill: LaunchResult }>(
            LAUNCH_BACKFILL_MUTATION,
            { backfillParams: b.params },
            `launching the backfill of wave ${wave + 1}`,
          );
          const result = data.launchPartitionBackfill;
          if (result.__typename !== "LaunchBackfillSuccess" || !result.backfillId) {
            const error = memberError(result);
            throw new OrchestratorError(
              `${peerAt("dagster", connection.baseUrl)} refused launching the backfill of wave ${wave + 1}: ${refusalMeaning(result)}`,
              {
                ...call,
                error,
              },
            );
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

    /** Each backfill's progress, per pair (backfillProgress), read from partitionBackfillOrError. */
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
        pairs.push(...backfillProgress(p, assets, backfillId, planned, b));
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
