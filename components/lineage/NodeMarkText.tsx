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

/** Said while the unit states' first computation has not reached a node: unknown, not "not suspect". */
export const SUSPECT_UNKNOWN = {
  word: "suspect? computing",
  detail: "whether these units are suspect is not known yet: the unit states are still being computed (asked again shortly)",
};

/** Badges drawn on a node; the rest are counted ("+2") and named in its tooltip, so none is cut at the node's edge. */
const BADGES_SHOWN = 2;

/**
 * What a closure node shows on the graph: its units in words (one line, the whole in its tooltip)
 * and what they hold now (each badge's units in its tooltip; the closure table lists them all).
 */
export function NodeMarkText({ mark }: { mark: NodeMark }) {
  const badges: Badge[] = [
    ...mark.holdings.map((h) => ({
      kind: h.kind,
      word: HOLDING_WORD[h.kind],
      title: `${HOLDING_WORD[h.kind]}: ${h.unitsText}${h.detail ? ` — ${h.detail}` : ""}`,
    })),
    ...(mark.suspectUnknown ? [{ kind: "suspect_unknown", word: SUSPECT_UNKNOWN.word, title: SUSPECT_UNKNOWN.detail }] : []),
  ];
  const shown = badges.slice(0, BADGES_SHOWN);
  const rest = badges.slice(BADGES_SHOWN);
  return (
    <div className={styles.mark}>
      <span className={styles.markUnits} data-testid="node-units" title={mark.entry.unitsText}>
        {mark.entry.unitsText}
      </span>
      {badges.length > 0 ? (
        <span className={styles.badges}>
          {shown.map((b) => (
            <span key={b.kind} className={styles.holding} data-kind={b.kind} title={b.title} data-testid="node-holding">
              {b.word}
            </span>
          ))}
          {rest.length > 0 ? (
            <span className={styles.holding} title={rest.map((b) => b.title).join("\n")} data-testid="node-holding">
              +{rest.length}
            </span>
          ) : null}
        </span>
      ) : null}
    </div>
  );
}

interface Badge {
  kind: string;
  word: string;
  title: string;
}
