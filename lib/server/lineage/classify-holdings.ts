import type { DatasetNode } from "@/lib/domain/lineage-graph";
import type { Attempt, LedgerEntry } from "@/lib/domain/unit-state";
import { UnitSet, UnitSetBuilder, toKeyRanges } from "@/lib/domain/unit-set";
import type { Holding, HoldingKind } from "@/lib/contracts/lineage";
import type { DatasetRecord } from "../repositories/lineage/catalog-reads";
import type { DeliveryRecord } from "../repositories/ledger/external-deliveries";
import type { ByUnit } from "../repositories/ledger/unit-ledger";
import { describeUnitSet } from "./describe-unit-set";

export interface UnitFactsLookup {
  publishes: ByUnit<LedgerEntry>;
  /** The attempts of the datasets' writers (task row id → unit key → attempts). */
  attempts: ByUnit<Attempt>;
  deliveries: DeliveryRecord[];
  /** When the seed last failed (epoch ms), or null when it never failed. */
  failedAt: number | null;
}

/** The kinds that partition a node's units (suspect is said besides them, get-closure-holdings.ts). */
type PartitionKind = Exclude<HoldingKind, "suspect">;

const DETAIL: Record<PartitionKind, string> = {
  never_ran: "never ran: consumers still see the previous value, stale while looking current",
  failed_nothing_written: "its latest try failed and wrote nothing: consumers still see the previous value",
  partial_write: "failed tries left rows behind and nothing was published: a partial write, not a value",
  built: "ran and succeeded, but reported no row count, so the ledger cannot say what it holds",
  built_before_failure: "ran before the failure, on inputs since replaced: looks current, is not",
  built_after_failure: "ran after the failure, on what the failure left behind",
  sent_outside: "consumed outside the platform: re-running recalls nothing, tell the consumer",
};

const ORDER: PartitionKind[] = ["sent_outside", "partial_write", "failed_nothing_written", "never_ran", "built", "built_after_failure", "built_before_failure"];

/**
 * Sorts each unit of `units` into what it holds now, from the ledger, the writers' attempts and
 * the deliveries: sent outside, a partial write (failed tries wrote rows, nothing published),
 * failed with nothing written (it ran: not "never ran"), built (a try succeeded without
 * reporting a count: a dbt view), built before or after the failure. Only units with a record are looked at one by one; every other unit of the set never
 * ran. So a ten-year daily closure node costs its records' size, not 3,650 key lookups.
 */
export function classifyHoldings(units: UnitSet, dataset: DatasetNode, record: DatasetRecord, writers: ReadonlySet<string>, facts: UnitFactsLookup): Holding[] {
  const ledger = facts.publishes.get(record.id);
  const sent = new Map<string, DeliveryRecord>();
  for (const d of facts.deliveries) if (writers.has(d.taskId)) sent.set(d.unitKey, d);
  const found: { ordinal: number; kind: PartitionKind }[] = [];
  const destinations = new Set<string>();
  const tried = new Map<string, Attempt[]>();
  for (const w of writers) for (const [key, list] of facts.attempts.get(w) ?? []) tried.set(key, [...(tried.get(key) ?? []), ...list]);
  let partialRows = 0;
  for (const key of new Set([...(ledger?.keys() ?? []), ...sent.keys(), ...tried.keys()])) {
    const verdict = dataset.space.validate(key);
    if (!verdict.valid || !units.contains(verdict.ordinal)) continue;
    const entries = ledger?.get(key) ?? [];
    const delivery = sent.get(key);
    let kind: PartitionKind;
    if (delivery || (record.external && entries.length > 0)) {
      kind = "sent_outside";
      if (delivery) destinations.add(`${delivery.destination} on ${delivery.sentAt.toISOString().slice(0, 10)}`);
    } else if (entries.length === 0) {
      const attempts = tried.get(key) ?? [];
      const latest = attempts.reduce<Attempt | null>((l, a) => (l === null || (a.startedAt ?? 0) >= (l.startedAt ?? 0) ? a : l), null);
      const left = attempts.reduce((n, a) => n + (a.status === "failed" ? (a.rowsWritten ?? 0) : 0), 0);
      if (latest?.status === "succeeded") kind = "built";
      else if (left > 0) {
        kind = "partial_write";
        partialRows += left;
      } else if (latest?.status === "failed") kind = "failed_nothing_written";
      else continue;
    } else {
      const latest = Math.max(...entries.map((e) => e.publishedAt));
      kind = facts.failedAt !== null && latest > facts.failedAt ? "built_after_failure" : "built_before_failure";
    }
    found.push({ ordinal: verdict.ordinal, kind });
  }
  found.sort((a, b) => a.ordinal - b.ordinal);
  const builders = new Map(ORDER.map((k) => [k, new UnitSetBuilder()]));
  for (const { ordinal, kind } of found) builders.get(kind)!.add(ordinal, ordinal);
  const sets = new Map(ORDER.map((k) => [k, builders.get(k)!.build()]));
  sets.set("never_ran", units.difference(UnitSet.fromOrdinals(found.map((f) => f.ordinal))));
  return ORDER.flatMap((kind) => {
    const set = sets.get(kind)!;
    if (set.isEmpty) return [];
    const where =
      kind === "sent_outside" && destinations.size > 0
        ? ` (sent to ${[...destinations].join("; ")})`
        : kind === "partial_write"
          ? ` (${partialRows} rows)`
          : "";
    return [{ kind, units: toKeyRanges(set, dataset.space), unitsText: describeUnitSet(set, dataset.space), detail: DETAIL[kind] + where }];
  });
}
