import { UNIT_STATE_PRECEDENCE, type UnitState, type UnitStateResult } from "@/lib/domain/unit-state";
import type { DatasetStateCodes } from "./state-service/unit-state-snapshot";
import type { DatasetUnitStates } from "./load-unit-states";

/** A unit that is not expected (not due, and no record says anything of it). */
export const NOT_EXPECTED = 255;
export const RANK = new Map<UnitState, number>(UNIT_STATE_PRECEDENCE.map((s, i) => [s, i]));
export const HEALTHY = new Set<UnitState>(["published", "repaired"]);

/** One dataset's states as a byte per unit, and the full result of each unit that is not healthy. */
export function toCodes(d: DatasetUnitStates): DatasetStateCodes {
  const codes = new Uint8Array(d.space.size).fill(NOT_EXPECTED);
  const problems = new Map<number, UnitStateResult>();
  for (const u of d.units) {
    codes[u.ordinal] = RANK.get(u.result.state)!;
    if (!HEALTHY.has(u.result.state)) problems.set(u.ordinal, u.result);
  }
  return { dataset: d.dataset, writer: d.writer, space: d.space, codes, problems, invalidLedgerKeys: d.invalidLedgerKeys, prevailing: d.prevailing };
}
