"use client";

import Link from "next/link";
import { useEffect } from "react";
import { STATE_LABELS, type UnitDetail } from "@/lib/contracts/units";
import { useUnitDetail } from "@/lib/client/use-units";
import { formatDeviation } from "@/lib/domain/unit-state";
import { STATE_PALETTE } from "@/components/shell/state-palette";
import { StateSwatch } from "@/components/shell/StateSwatch";
import { CellRecords } from "./CellRecords";
import { useNodePeople } from "@/lib/client/use-people";
import { NodeOwners } from "@/components/lineage/PeopleList";
import { lineageHref } from "./selection";
import styles from "./CellPanel.module.css";

/**
 * The side panel of one unit: why it is in its state, and every record behind that. It does not
 * take the focus: arrow keys keep moving through the matrix and Enter shows the next unit here —
 * so Esc closes it wherever the focus is (the grid, the panel, the page).
 */
export function CellPanel({ dataset, unit, onClose }: { dataset: string; unit: string; onClose(): void }) {
  const { data, error, isPending } = useUnitDetail(dataset, unit);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <aside className={styles.panel} aria-labelledby="cell-panel-title" data-testid="cell-panel">
      <header className={styles.head}>
        <h2 id="cell-panel-title">
          {data?.datasetName ?? dataset.split(":").pop()} <span className="mono">{unit}</span>
        </h2>
        <button type="button" className={styles.close} onClick={onClose} aria-label="Close the unit panel" title="Close (Esc)">
          ×
        </button>
      </header>
      {isPending ? <div className="skeleton" style={{ height: 160 }} aria-label="Loading the unit" /> : null}
      {error ? (
        <p className="error-box" role="alert">
          Could not load {unit}: {error.message}
        </p>
      ) : null}
      {data ? <PanelBody d={data} /> : null}
    </aside>
  );
}

/** The dataset's owners (where each was found) and its declared consumers: who must know about this unit. */
function DatasetPeople({ nodeId }: { nodeId: string }) {
  const people = useNodePeople(nodeId);
  if (people.isError)
    return (
      <p className="error-box" role="alert">
        The owners of the dataset could not be found: {people.error.message}
      </p>
    );
  return people.data ? <NodeOwners people={people.data} testId="panel-people" /> : <div className="skeleton" aria-label="Finding the owners" />;
}

function PanelBody({ d }: { d: UnitDetail }) {
  const noPublish = d.publishes.length === 0;
  return (
    <div className={styles.body}>
      <p>
        <span className={styles.state} data-testid="panel-state" style={{ backgroundColor: STATE_PALETTE[d.state].colour, color: STATE_PALETTE[d.state].ink }}>
          <StateSwatch state={d.state} />
          {STATE_LABELS[d.state]}
        </span>
        {d.pipeline ? <span className="muted"> · {d.pipeline}</span> : null}
      </p>
      {noPublish ? (
        <p className="notice" data-testid="panel-no-publish">
          No publish: this unit is not in the ledger
          {d.state === "blocked" ? " — it never ran because an upstream unit failed" : d.state === "failed" ? " — its latest attempt failed" : ""}.
        </p>
      ) : null}
      <ul className={styles.reasons} data-testid="panel-reasons">
        {d.reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
      <dl className={styles.facts}>
        <dt>Source count</dt>
        <dd data-testid="panel-source">{d.sourceCount ?? "none recorded"}</dd>
        <dt>Rows published</dt>
        <dd data-testid="panel-rows">{noPublish ? "—" : (d.publishes[d.publishes.length - 1]!.rowCount ?? "unknown (no row count sent)")}</dd>
        <dt>Deviation</dt>
        <dd data-testid="panel-deviation">
          {d.deviation === null ? "—" : `${formatDeviation(d.deviation)} (tolerance ±${Math.round(d.tolerance * 1000) / 10}%)`}
        </dd>
        <dt>Partial rows left</dt>
        <dd data-testid="panel-partial">{d.partialRows ?? "unknown (no row count sent)"}</dd>
        <dt>Written by</dt>
        <dd data-testid="panel-writer">
          {d.writer
            ? `${d.writer.name} (${d.writer.writeMode ? `${d.writer.writeMode}${d.writer.writeModeFrom ? ` — ${d.writer.writeModeFrom}` : ""}` : "write mode unknown: nobody declared it"})`
            : "no task (a source)"}
        </dd>
      </dl>
      <DatasetPeople nodeId={d.datasetNodeId} />
      <p className={styles.links}>
        {d.latestRunId ? (
          <Link href={`/history?run=${encodeURIComponent(d.latestRunId)}`} data-testid="panel-run-link">
            Run {d.latestRunId.slice(0, 10)}… →
          </Link>
        ) : null}
        <Link href={lineageHref(d.writer?.nodeId ?? d.datasetNodeId, d.unitKey)} data-testid="panel-lineage-link">
          Lineage with this unit selected →
        </Link>
      </p>
      <CellRecords d={d} />
    </div>
  );
}
