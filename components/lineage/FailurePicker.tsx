"use client";

import { Name } from "@/components/shell/Name";
import { useLineageFailures } from "@/lib/client/use-lineage";
import styles from "./Lineage.module.css";
import { compositeKey } from "@/lib/domain/composite-key";

/** The current failures: one click puts a failed (task, unit) in the graph's selection. */
export function FailurePicker({ selected, onPick }: { selected: { node: string; units: string }; onPick: (node: string, unit: string) => void }) {
  const overview = useLineageFailures();
  if (overview.isPending) return <div className="skeleton" aria-label="Loading current failures" />;
  if (overview.isError) return <p className="error-box">Current failures could not be loaded: {overview.error.message}</p>;
  const failures = overview.data.failures;
  if (failures.length === 0) return <p className="empty">No open failures.</p>;
  return (
    <ul className={styles.pickList} aria-label="Current failures" data-testid="failure-list">
      {failures.map((f) => {
        const active = selected.node === f.taskNodeId && selected.units === f.unitKey;
        return (
          <li key={compositeKey(f.taskNodeId, f.unitKey)}>
            <button type="button" aria-pressed={active} className={styles.pick} onClick={() => onPick(f.taskNodeId, f.unitKey)}>
              <Name>{f.taskName}</Name> <span className="mono">{f.unitKey}</span>
              <span className="muted">
                {" "}
                · {f.tries} {f.tries === 1 ? "try" : "tries"}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
