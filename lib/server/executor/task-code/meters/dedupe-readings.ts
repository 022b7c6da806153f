import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { METER_DATASETS } from "../node-ids";
import type { MeterReading } from "./meter-source";
import { compositeKey } from "@/lib/domain/composite-key";

/** Stage 2 (s2_dedupe): the first record per (subscriber, period) wins — what swallows an appending retry's copies. */
export const dedupeReadings: TaskCode = {
  codeVersion: "dedupe_readings@1.0.0",
  atomicWrite: true,
  run(ctx) {
    const seen = new Set<string>();
    const rows = [];
    for (const r of inputRows<MeterReading>(ctx, METER_DATASETS.screened)) {
      const key = compositeKey(r.subscriber, r.period);
      if (seen.has(key)) continue;
      seen.add(key);
      // The row's key keeps the form the landed rows have (land-meter-readings.ts).
      // eslint-disable-next-line no-restricted-syntax -- a stored row key, not a Map key
      rows.push({ rowKey: `${r.subscriber}|${r.period}`, payload: { ...r } });
    }
    return { rows };
  },
};
