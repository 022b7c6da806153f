import type { TaskCode } from "../../types";
import { METER_DATASETS } from "../node-ids";

const REQUIRED = ["subscriber", "period", "region", "index", "unit"];

/** Stage 1 (seed 003's s1_screen): keeps records carrying every required field. */
export const screenReadings: TaskCode = {
  codeVersion: "screen_readings@1.0.0",
  atomicWrite: true,
  run(ctx) {
    const rows = ctx.inputs[METER_DATASETS.raw]?.rows ?? [];
    return { rows: rows.filter((r) => REQUIRED.every((f) => f in r.payload)).map((r) => ({ rowKey: r.rowKey, payload: r.payload })) };
  },
};
