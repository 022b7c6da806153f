import type { DatasetNode } from "@/lib/domain/lineage-graph";
import type { LedgerEntry } from "@/lib/domain/unit-state";
import { UnitSet, UnitSetBuilder, toKeyRanges } from "@/lib/domain/unit-set";
import type { Holding, HoldingKind } from "@/lib/contracts/lineage";
import type { DatasetRecord } from "../repositories/catalog";
import type { DeliveryRecord } from "../repositories/deliveries";
import type { ByUnit } from "../repositories/ledger";
import { describeUnitSet } from "./describe-unit-set";

export interface UnitFactsLookup {
  publishes: ByUnit<LedgerEntry>;
  deliveries: DeliveryRecord[];
  /** When the seed last failed (epoch ms), or null when it never failed. */
  failedAt: number | null;
}

/** A closure larger than this per node is summarised by its first units (a 10-year daily set stays cheap). */
const MAX_UNITS_INSPECTED = 10_000;

const DETAIL: Record<HoldingKind, string> = {
  never_ran: "never ran: consumers still see the previous value, stale while looking current",
  built_before_failure: "ran before the failure, on inputs since replaced: looks current, is not",
  built_after_failure: "ran after the failure, on what the failure left behind",
  sent_outside: "consumed outside the platform: re-running recalls nothing, tell the consumer",
};

const ORDER: HoldingKind[] = ["sent_outside", "never_ran", "built_after_failure", "built_before_failure"];

/** Sorts each unit of `units` into what it holds now, from the ledger and the deliveries. */
export function classifyHoldings(units: UnitSet, dataset: DatasetNode, record: DatasetRecord, writers: ReadonlySet<string>, facts: UnitFactsLookup): Holding[] {
  const ledger = facts.publishes.get(record.id);
  const sent = new Map<string, DeliveryRecord>();
  for (const d of facts.deliveries) if (writers.has(d.taskId)) sent.set(d.unitKey, d);
  const builders = new Map(ORDER.map((k) => [k, new UnitSetBuilder()]));
  const destinations = new Set<string>();
  let inspected = 0;
  for (const ordinal of units) {
    if (++inspected > MAX_UNITS_INSPECTED) break;
    const key = dataset.space.keyAt(ordinal);
    const entries = ledger?.get(key) ?? [];
    const delivery = sent.get(key);
    let kind: HoldingKind;
    if (delivery || (record.external && entries.length > 0)) {
      kind = "sent_outside";
      if (delivery) destinations.add(`${delivery.destination} on ${delivery.sentAt.toISOString().slice(0, 10)}`);
    } else if (entries.length === 0) kind = "never_ran";
    else {
      const latest = Math.max(...entries.map((e) => e.publishedAt));
      kind = facts.failedAt !== null && latest > facts.failedAt ? "built_after_failure" : "built_before_failure";
    }
    builders.get(kind)!.add(ordinal, ordinal);
  }
  return ORDER.flatMap((kind) => {
    const set: UnitSet = builders.get(kind)!.build();
    if (set.isEmpty) return [];
    const where = kind === "sent_outside" && destinations.size > 0 ? ` (sent to ${[...destinations].join("; ")})` : "";
    return [{ kind, units: toKeyRanges(set, dataset.space), unitsText: describeUnitSet(set, dataset.space), detail: DETAIL[kind] + where }];
  });
}
