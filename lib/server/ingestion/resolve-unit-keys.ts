import { resolvePartitions, UNPARTITIONED_KEY, type PartitionDef, type PartitionSpace } from "@/lib/domain/partitions";

export type UnitVerdict = { key: string; valid: true } | { key: string; valid: false; reason: string };

/** What a run says about the unit it built, when its outputs name none: most specific first. */
export interface RunUnitHints {
  /** Airflow's partition_key of a partitioned DAG run. */
  partitionKey: string | null;
  /** Airflow's partition_date: the instant the partition stands for. */
  partitionDate: number | null;
  /** The run's nominal (scheduled) time. */
  nominalStart: number | null;
}

const NO_HINTS: RunUnitHints = { partitionKey: null, partitionDate: null, nominalStart: null };

// Validity is about the definition (format, start, end), not about whether a window has closed:
// a run may legitimately write today's unit. So spaces are resolved far in the future.
const FAR_FUTURE = Date.UTC(9999, 0, 1);

/** Resolves partition definitions once per request; a definition that cannot resolve is reported per key. */
export class UnitKeyResolver {
  private readonly spaces = new Map<string, PartitionSpace | Error>();

  /**
   * The units an output names: explicit subset-facet keys first; otherwise Airflow's partition
   * key (when the definition accepts it), the window containing Airflow's partition date, then
   * the window containing the run's nominal time (time definitions); an unpartitioned dataset has
   * the one unit `*`. A key the definition rejects comes back invalid with its reason (seed 002)
   * — it is reported, never dropped.
   */
  resolve(datasetNodeId: string, def: PartitionDef, explicitKeys: string[], hints: RunUnitHints = NO_HINTS): UnitVerdict[] {
    const space = this.spaceOf(datasetNodeId, def);
    if (space instanceof Error) return explicitKeys.map((key) => ({ key, valid: false, reason: `partition definition does not resolve: ${space.message}` }));
    if (explicitKeys.length > 0) return explicitKeys.map((key) => verdictOf(space, key));
    if (def.kind === "none") return [{ key: UNPARTITIONED_KEY, valid: true }];
    const byKey = hints.partitionKey === null ? null : verdictOf(space, hints.partitionKey);
    if (byKey?.valid) return [byKey];
    const instant = hints.partitionDate ?? (byKey ? null : hints.nominalStart);
    if (space.time && instant !== null) return [verdictOf(space, space.time.keyAt(space.time.ordinalAtMs(instant)))];
    if (byKey) return [byKey];
    return [
      {
        key: UNPARTITIONED_KEY,
        valid: false,
        reason: `the dataset is partitioned (${def.kind}) but the event names no partition: send a subset facet${def.kind === "time" ? " or a nominal time" : ""}`,
      },
    ];
  }

  private spaceOf(nodeId: string, def: PartitionDef): PartitionSpace | Error {
    let space = this.spaces.get(nodeId);
    if (!space) {
      try {
        space = resolvePartitions(def, { asOf: FAR_FUTURE });
      } catch (e) {
        space = e as Error;
      }
      this.spaces.set(nodeId, space);
    }
    return space;
  }
}

function verdictOf(space: PartitionSpace, key: string): UnitVerdict {
  const v = space.validate(key);
  return v.valid ? { key: v.key, valid: true } : { key, valid: false, reason: v.reason };
}
