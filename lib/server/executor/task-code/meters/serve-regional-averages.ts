import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { METER_DATASETS } from "../node-ids";
import { roundHalfEven } from "./round-half-even";

/**
 * Stage 5 (s5_serve): per region, the average of its period cells, rounded as Python's
 * round(x, 2). A half-written period enters the average as if it were complete.
 */
export const serveRegionalAverages: TaskCode = {
  codeVersion: "serve_regional_averages@1.0.0",
  atomicWrite: true,
  run(ctx) {
    const cells = new Map<string, number[]>();
    for (const c of inputRows<{ region: string; m3: number }>(ctx, METER_DATASETS.summary)) {
      cells.set(c.region, [...(cells.get(c.region) ?? []), c.m3]);
    }
    return {
      rows: [...cells].map(([region, values]) => ({
        rowKey: region,
        payload: { region, average_m3: roundHalfEven(values.reduce((a, b) => a + b, 0) / values.length, 2), periods: values.length },
      })),
    };
  },
};
