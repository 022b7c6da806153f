const LABELS: Record<string, string> = { known_bad: "known-bad", input_mismatch: "input mismatch" };

export function StateBadge({ state }: { state: string }) {
  return (
    <span className="badge">
      <span className="dot" style={{ background: `var(--state-${state})` }} />
      {LABELS[state] ?? state}
    </span>
  );
}
