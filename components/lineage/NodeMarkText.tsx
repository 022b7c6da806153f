import type { NodeMark } from "./highlight-store";
import styles from "./Lineage.module.css";

export const HOLDING_WORD = {
  never_ran: "never ran",
  failed_nothing_written: "failed, wrote nothing",
  partial_write: "partial write",
  built: "built",
  built_before_failure: "built before the failure",
  built_after_failure: "built after the failure",
  sent_outside: "sent outside",
  suspect: "suspect",
} as const;

/** Badges drawn on a node; the rest are counted ("+2") and named in its tooltip, so none is cut at the node's edge. */
const BADGES_SHOWN = 2;

/**
 * What a closure node shows on the graph: its units in words (one line, the whole in its tooltip)
 * and what they hold now (each badge's units in its tooltip; the closure table lists them all).
 */
export function NodeMarkText({ mark }: { mark: NodeMark }) {
  const shown = mark.holdings.slice(0, BADGES_SHOWN);
  const rest = mark.holdings.slice(BADGES_SHOWN);
  const say = (h: NodeMark["holdings"][number]) => `${HOLDING_WORD[h.kind]}: ${h.unitsText}${h.detail ? ` — ${h.detail}` : ""}`;
  return (
    <div className={styles.mark}>
      <span className={styles.markUnits} data-testid="node-units" title={mark.entry.unitsText}>
        {mark.entry.unitsText}
      </span>
      {mark.holdings.length > 0 ? (
        <span className={styles.badges}>
          {shown.map((h) => (
            <span key={h.kind} className={styles.holding} data-kind={h.kind} title={say(h)} data-testid="node-holding">
              {HOLDING_WORD[h.kind]}
            </span>
          ))}
          {rest.length > 0 ? (
            <span className={styles.holding} title={rest.map(say).join("\n")} data-testid="node-holding">
              +{rest.length}
            </span>
          ) : null}
        </span>
      ) : null}
    </div>
  );
}
