import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { METER_DATASETS } from "../node-ids";
import type { MeterReading } from "./meter-source";

/** Stage 2 (s2_dedupe): the first record per (subscriber, period) wins — what swallows an appending retry's copies. */
export const dedupeReadings: TaskCode = {
  codeVersion: "dedupe_readings@1.0.0",
  atomicWrite: true,
  run(ctx) {
    const seen = new Set<string>();
    const rows = [];
    for (const r of inputRows<MeterReading>(ctx, METER_DATASETS.screened)) {
      const key = `${r.subscriber}|${r.period}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({ rowKey: key, payload: { ...r } });
    }
    return { rows };
  },
};
