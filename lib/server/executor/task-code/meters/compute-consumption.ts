import type { TaskCode } from "../../types";
import { METER_DATASETS } from "../node-ids";
import type { MeterReading } from "./meter-source";

export interface Consumption extends MeterReading {
  m3: number;
}

/**
 * Stage 3 (s3_consumption): a period's consumption is its index minus the previous period's,
 * so the task reads two periods of the deduplicated readings (window(2)). A subscriber missing
 * from the previous period is dropped: an absent 2026-07 also loses 2026-08 (seed 003).
 */
export const computeConsumption: TaskCode = {
  codeVersion: "compute_consumption@1.0.0",
  atomicWrite: true,
  run(ctx) {
    const rows = ctx.inputs[METER_DATASETS.deduped]?.rows ?? [];
    const previous = new Map<string, MeterReading>();
    for (const r of rows) if (r.unitKey !== ctx.unitKey) previous.set(String(r.payload.subscriber), r.payload as unknown as MeterReading);
    const out = [];
    for (const r of rows) {
      if (r.unitKey !== ctx.unitKey) continue;
      const current = r.payload as unknown as MeterReading;
      const prev = previous.get(current.subscriber);
      if (!prev) continue;
      const reading: Consumption = { ...current, m3: Math.trunc(current.index) - Math.trunc(prev.index) };
      out.push({ rowKey: r.rowKey, payload: { ...reading } });
    }
    return { rows: out };
  },
};
