import type { NodeMark } from "./highlight-store";
import styles from "./Lineage.module.css";

export const HOLDING_WORD = {
  never_ran: "never ran",
  partial_write: "partial write",
  built: "built",
  built_before_failure: "built before the failure",
  built_after_failure: "built after the failure",
  sent_outside: "sent outside",
  suspect: "suspect",
} as const;

/** What a closure node shows on the graph: its units in words and what they hold now. */
export function NodeMarkText({ mark }: { mark: NodeMark }) {
  return (
    <div className={styles.mark}>
      <span data-testid="node-units">{mark.entry.unitsText}</span>
      {mark.holdings.map((h) => (
        <span key={h.kind} className={styles.holding} data-kind={h.kind} title={h.detail}>
          {HOLDING_WORD[h.kind]}
          {mark.holdings.length > 1 ? `: ${h.unitsText}` : ""}
        </span>
      ))}
    </div>
  );
}
