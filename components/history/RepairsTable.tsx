import Link from "next/link";
import type { RepairRow } from "@/lib/contracts/history";
import { formatDuration } from "./format-duration";
import styles from "./History.module.css";

/** Every repair run, labelled as a repair, linked to its incident and the run it repaired. */
const SHOWN = 100;

export function RepairsTable({ repairs }: { repairs: RepairRow[] }) {
  return (
    <section className="card" aria-labelledby="repairs-title">
      <h2 id="repairs-title">Repair runs</h2>
      <p className="sub">
        Detect: failure → incident opened. Repair: incident opened → repair run finished. Validate: repair finished → validation passed. Resolution: incident
        opened → resolved.
      </p>
      <div className={styles.tableScroll}>
        <table className="data reflow" data-testid="repairs">
          <thead>
            <tr>
              <th>Run</th>
              <th>Incident</th>
              <th>Original run</th>
              <th>Tasks</th>
              <th>Failure</th>
              <th>Detect</th>
              <th>Repair</th>
              <th>Validate</th>
              <th>Resolution</th>
              <th>Units</th>
            </tr>
          </thead>
          <tbody>
            {repairs.slice(0, SHOWN).map((r) => (
              <tr key={r.runId} data-testid={`repair-${r.runId}`}>
                <td data-label="Run">
                  <span className={`badge ${styles.repairBadge}`}>repair #{r.repairNumber}</span>
                  <div className="mono muted">{r.runId}</div>
                  <div className="muted">
                    {r.status} · {r.repairStartedAt?.slice(0, 16).replace("T", " ") ?? "not started"}
                  </div>
                </td>
                <td data-label="Incident">
                  {r.incident ? (
                    <Link href={r.incident.href} prefetch={false}>
                      {r.incident.title}
                    </Link>
                  ) : (
                    <span className="muted">none</span>
                  )}
                  {r.incident ? <div className="muted">{r.incident.status}</div> : null}
                </td>
                <td data-label="Original run" className="mono">
                  {r.rootRunId ?? "—"}
                </td>
                <td data-label="Tasks">
                  {r.tasks.map((t) => t.split(":").pop()).join(", ")}
                  <div className="muted">{r.owners.join(", ")}</div>
                </td>
                <td data-label="Failure">{r.failureCategories.join(", ") || "—"}</td>
                <td data-label="Detect" className="nowrap" data-testid="ttd">
                  {formatDuration(r.timeToDetectMs)}
                </td>
                <td data-label="Repair" className="nowrap" data-testid="ttr">
                  {formatDuration(r.timeToRepairMs)}
                </td>
                <td data-label="Validate" className="nowrap" data-testid="ttv">
                  {formatDuration(r.timeToValidateMs)}
                </td>
                <td data-label="Resolution" className="nowrap">
                  {formatDuration(r.timeToResolutionMs)}
                </td>
                <td data-label="Units" data-testid="units-recomputed">
                  {r.unitsRecomputed}
                  {r.pairsPlanned !== null && r.pairsPlanned !== r.unitsRecomputed ? <> of {r.pairsPlanned} planned</> : null}
                  {r.fullRerunUnits !== null ? <span className="muted"> ({r.fullRerunUnits} for a full re-run)</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {repairs.length > SHOWN ? (
        <p className="muted">
          Showing the {SHOWN} most recent of {repairs.length} repair runs: narrow the filters, or export the CSV for all of them.
        </p>
      ) : null}
    </section>
  );
}
