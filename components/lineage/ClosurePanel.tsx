"use client";

import { useReactFlow } from "@xyflow/react";
import type { Closure, Holdings } from "@/lib/contracts/lineage";
import styles from "./Lineage.module.css";

const HOLDING_WORD = { never_ran: "never ran", built_before_failure: "built before the failure", built_after_failure: "built after the failure", sent_outside: "sent outside" } as const;

/** A table of thousands of rows would cost seconds per selection; the graph shows the whole closure. */
const ROWS_SHOWN = 200;

/** The closure as a table: every node, its units in words, what it holds now, and how it was reached. */
export function ClosurePanel({ closure, holdings }: { closure: Closure; holdings: Holdings | undefined }) {
  const flow = useReactFlow();
  const holdsOf = new Map(holdings?.nodes.map((n) => [n.nodeId, n.holdings]) ?? []);
  const nameOf = new Map(closure.nodes.map((n) => [n.nodeId, n.name]));
  return (
    <>
    <p className="muted">
      <strong>never ran</strong>: consumers still see the previous value, stale while looking current ·{" "}
      <strong>built before the failure</strong>: on inputs since replaced ·{" "}
      <strong>sent outside</strong>: consumed outside the platform, re-running recalls nothing
    </p>
    <table className="data" data-testid="closure-table">
      <caption className={styles.caption}>
        {closure.direction === "downstream" ? "Downstream closure (blast radius)" : "Upstream closure (built from)"}: {closure.nodes.length} nodes in {closure.waves.length} waves, lineage as of {closure.asOf.slice(0, 16).replace("T", " ")} UTC
      </caption>
      <thead>
        <tr><th>Node</th><th>Units</th><th>Holds now</th><th>Reached via</th></tr>
      </thead>
      <tbody>
        {closure.nodes.slice(0, ROWS_SHOWN).map((n) => (
          <tr key={n.nodeId} data-testid={`closure-row-${n.nodeId}`}>
            <td>
              <button type="button" className={styles.linkButton} onClick={() => flow.fitView({ nodes: [{ id: n.nodeId }], duration: 300, maxZoom: 1.2 })} aria-label={`Show ${n.kind} ${n.name} in the graph`}>
                {n.name}
              </button>
              <div className="muted">{n.kind}{n.seed ? " · selected" : ""}</div>
            </td>
            <td className="mono" data-testid="closure-units">{n.unitsText}</td>
            <td>
              {(holdsOf.get(n.nodeId) ?? []).map((h) => (
                <div key={h.kind} title={h.detail}>
                  <span className={styles.holding} data-kind={h.kind}>{HOLDING_WORD[h.kind]}</span> {h.unitsText}
                </div>
              ))}
              {!holdings ? <span className="muted">loading…</span> : null}
            </td>
            <td className="muted">{n.via.map((v) => `${nameOf.get(v) ?? v} (${v.startsWith("job:") ? "task" : "dataset"})`).join(", ") || "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
    {closure.nodes.length > ROWS_SHOWN ? <p className="muted">The first {ROWS_SHOWN} of {closure.nodes.length} nodes, in execution order; the graph highlights all of them, and GET /api/v1/closure lists them all.</p> : null}
    </>
  );
}
