import type { TaskCode } from "../../types";
import { METER_DATASETS } from "../node-ids";
import { meterSource } from "./meter-source";

/**
 * Lands one period of meter readings, row by row (not atomic by default: seed 003's baseline).
 * The source's own count for the period (200) is what the raw, screened and deduplicated
 * partitions must reconcile to.
 */
export const landMeterReadings: TaskCode = {
  codeVersion: "land_meter_readings@1.0.0",
  atomicWrite: false,
  reconciles: [METER_DATASETS.screened, METER_DATASETS.deduped],
  run(ctx) {
    const records = meterSource().filter((r) => r.period === ctx.unitKey);
    // eslint-disable-next-line no-restricted-syntax -- a stored row key (the demo warehouse's), not a Map key
    return { rows: records.map((r) => ({ rowKey: `${r.subscriber}|${r.period}`, payload: { ...r } })), sourceCount: records.length };
  },
};
