import { STATE_LABELS, type MatrixState } from "@/lib/contracts/units";

const isUnitState = (s: string): s is MatrixState => Object.hasOwn(STATE_LABELS, s);

/**
 * A unit state as a coloured dot and its name, as the matrix's legend words it (one table:
 * lib/contracts/units.ts STATE_LABELS) — the wizard, completeness and the matrix say the same.
 */
export function StateBadge({ state }: { state: string }) {
  return (
    <span className="badge" data-state={state}>
      <span className="dot" style={{ background: `var(--state-${state}, #9ca3af)` }} aria-hidden />
      {isUnitState(state) ? STATE_LABELS[state] : state.replace(/_/g, " ")}
    </span>
  );
}
