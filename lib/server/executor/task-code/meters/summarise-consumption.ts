import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { METER_DATASETS } from "../node-ids";
import type { Consumption } from "./compute-consumption";

/** Stage 4 (s4_summary): total m3 per (region, period). A region with no rows gets no cell at all. */
export const summariseConsumption: TaskCode = {
  codeVersion: "summarise_consumption@1.0.0",
  atomicWrite: true,
  run(ctx) {
    const totals = new Map<string, number>();
    for (const r of inputRows<Consumption>(ctx, METER_DATASETS.consumption)) totals.set(r.region, (totals.get(r.region) ?? 0) + r.m3);
    return { rows: [...totals].map(([region, m3]) => ({ rowKey: region, payload: { region, period: ctx.unitKey, m3 } })) };
  },
};
