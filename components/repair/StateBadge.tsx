/** A unit state as a coloured dot and its name ("input_mismatch" → "input mismatch"). */
export function StateBadge({ state }: { state: string }) {
  return (
    <span className="badge" data-state={state}>
      <span className="dot" style={{ background: `var(--state-${state}, #9ca3af)` }} aria-hidden />
      {state.replace(/_/g, " ")}
    </span>
  );
}
