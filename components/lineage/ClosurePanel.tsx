"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useReactFlow } from "@xyflow/react";
import Link from "next/link";
import { Name } from "@/components/shell/Name";
import { useMemo, useRef } from "react";
import type { Closure, Holdings } from "@/lib/contracts/lineage";
import { counted } from "@/lib/domain/words";
import { HOLDING_WORD, SUSPECT_UNKNOWN } from "./NodeMarkText";
import styles from "./Lineage.module.css";

const ROW_ESTIMATE = 52;

/**
 * The closure as a table: every node, its units in words, what it holds now, and how it was
 * reached, and the link that opens an incident for the selection. Virtualised: a closure of thousands of nodes scrolls in its box with only the rows in
 * view mounted, so a new selection costs the same whatever the closure's size.
 */
export function ClosurePanel({ closure, holdings, incidentHref }: { closure: Closure; holdings: Holdings | undefined; incidentHref: string | null }) {
  const flow = useReactFlow();
  const holdsOf = useMemo(() => new Map(holdings?.nodes.map((n) => [n.nodeId, n]) ?? []), [holdings]);
  const nameOf = useMemo(() => new Map(closure.nodes.map((n) => [n.nodeId, n.name])), [closure]);
  // Declared consumers come last: what they read of it, in no wave.
  const consumers = useMemo(() => closure.nodes.filter((n) => n.kind === "consumer").length, [closure]);
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer re-renders this component on scroll by design (as in MatrixGrid).
  // eslint-disable-next-line react-hooks/incompatible-library
  const rows = useVirtualizer({
    count: closure.nodes.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 12,
    useFlushSync: false,
  });
  const items = rows.getVirtualItems();
  const [before, after] = items.length ? [items[0]!.start, rows.getTotalSize() - items[items.length - 1]!.end] : [0, 0];
  return (
    <>
      <div className={styles.closureHead}>
        {incidentHref ? (
          // The existing incident-creation flow, prefilled with the selected task and units (docs/repair.md).
          <Link href={incidentHref} className={styles.incidentLink} data-testid="open-incident">
            Open an incident for these units
          </Link>
        ) : (
          <span className="muted">Nothing in the catalog writes the selection: no task to re-run, so no incident to open from here.</span>
        )}
      </div>
      <p className="muted">
        <strong>never ran</strong>: consumers still see the previous value, stale while looking current · <strong>failed, wrote nothing</strong>: ran and
        failed, consumers still see the previous value · <strong>partial write</strong>: failed tries left rows behind · <strong>built</strong>: ran and
        succeeded, but reported no row count · <strong>built before the failure</strong>: on inputs since replaced · <strong>sent outside</strong>: consumed
        outside the platform, re-running recalls nothing · <strong>suspect</strong>: published, but built on a bad upstream unit
      </p>
      <div ref={scroller} className={styles.closureScroller}>
        <table className="data" data-testid="closure-table">
          <caption className={styles.caption}>
            {closure.direction === "downstream" ? "Downstream closure (blast radius)" : "Upstream closure (built from)"}:{" "}
            {counted(closure.nodes.length - consumers, "node")} in {counted(closure.waves.length, "wave")}
            {consumers > 0 ? `, read by ${counted(consumers, "consumer")}` : ""}, lineage as of {closure.asOf.slice(0, 16).replace("T", " ")} UTC
          </caption>
          <thead>
            <tr>
              <th>Node</th>
              <th>Units</th>
              <th>Holds now</th>
              <th>Reached via</th>
            </tr>
          </thead>
          <tbody>
            {before > 0 ? <tr aria-hidden style={{ height: before }} /> : null}
            {items.map(({ index, key }) => {
              const n = closure.nodes[index]!;
              return (
                <tr key={key} ref={rows.measureElement} data-index={index} data-testid={`closure-row-${n.nodeId}`}>
                  <td className={styles.nameCell}>
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() => flow.fitView({ nodes: [{ id: n.nodeId }], duration: 300, maxZoom: 1.2 })}
                      aria-label={`Show ${n.kind} ${n.name} in the graph`}
                    >
                      <Name strong={false}>{n.name}</Name>
                    </button>
                    <div className="muted">
                      {n.kind}
                      {n.seed ? " · selected" : ""}
                    </div>
                  </td>
                  <td className="mono" data-testid="closure-units">
                    {n.unitsText}
                  </td>
                  <td>
                    {(holdsOf.get(n.nodeId)?.holdings ?? []).map((h) => (
                      <div key={h.kind} title={h.detail}>
                        <span className={styles.holding} data-kind={h.kind}>
                          {HOLDING_WORD[h.kind]}
                        </span>{" "}
                        {h.unitsText}
                      </div>
                    ))}
                    {holdsOf.get(n.nodeId)?.suspectUnknown ? (
                      <div title={SUSPECT_UNKNOWN.detail} data-testid="suspect-unknown">
                        <span className={styles.holding} data-kind="suspect_unknown">
                          {SUSPECT_UNKNOWN.word}
                        </span>{" "}
                        {holdings?.statesComputing ? `${holdings.statesComputing.done} of ${holdings.statesComputing.total} datasets' states computed` : null}
                      </div>
                    ) : null}
                    {!holdings ? <span className="muted">loading…</span> : null}
                  </td>
                  <td className="muted">
                    {n.via.map((v) => `${nameOf.get(v) ?? v} (${v.startsWith("job:") ? "task" : "dataset"})`).join(", ") || "—"}
                    {n.degradedVia.map((d) => (
                      <div key={d.nodeId} className={styles.degradedVia} title={d.reason}>
                        degraded edge from {nameOf.get(d.nodeId) ?? d.nodeId}: every unit taken as affected
                      </div>
                    ))}
                  </td>
                </tr>
              );
            })}
            {after > 0 ? <tr aria-hidden style={{ height: after }} /> : null}
          </tbody>
        </table>
      </div>
    </>
  );
}
