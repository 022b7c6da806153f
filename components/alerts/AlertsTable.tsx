import Link from "next/link";
import type { AlertView } from "@/lib/contracts/alerts";
import { Name } from "@/components/shell/Name";
import styles from "./Alerts.module.css";

const RULES: Record<AlertView["rule"], string> = {
  task_failed: "task still failing",
  missing_past_deadline: "missing past deadline",
  published_more_than_once: "more than one copy",
  empty: "published empty",
  row_count_out_of_band: "row count out of band",
  period_incomplete: "period incomplete",
  stale_after_republish: "stale after upstream republish",
  check_failed: "a check (test) failed",
  consumed_outside: "delivered outside, now wrong",
};

function unitsText(units: string[], count: number): string {
  return count > 6 ? `${units.slice(0, 3).join(", ")} … (${count} units)` : units.join(", ");
}

export function AlertsTable({ alerts }: { alerts: AlertView[] }) {
  return (
    <table className="data reflow" data-testid="alerts">
      <thead>
        <tr>
          <th>Source</th>
          <th>Alert</th>
          <th>Dataset</th>
          <th>Units</th>
          <th>Evidence</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {alerts.map((a) => (
          <tr key={a.id} className={styles[a.severity]} data-testid={`alert-${a.rule}-${a.datasetName}`}>
            <td data-label="Source">
              <span
                className={`${styles.source} ${styles[a.source]}`}
                title={a.source === "task" ? "from the task's status after its last try" : "from the ledger and source counts, whatever the run status"}
              >
                {a.source} alert
              </span>
            </td>
            <td data-label="Alert">
              <strong>{RULES[a.rule]}</strong>
              <div className="muted">{a.title}</div>
            </td>
            <td data-label="Dataset">
              <Name>{a.datasetName}</Name>
              <div className="muted mono">{a.pipeline ?? "—"}</div>
            </td>
            <td className={`mono ${styles.units}`} data-testid="alert-units" data-label="Units">
              {unitsText(a.units, a.unitCount)}
            </td>
            <td data-label="Evidence">
              <ul className={styles.details}>
                {a.details.slice(0, 3).map((d) => (
                  <li key={d}>{d}</li>
                ))}
                {a.details.length + a.detailsOmitted > 3 ? <li>+{a.details.length + a.detailsOmitted - 3} more</li> : null}
              </ul>
            </td>
            <td className="nowrap">
              {a.incidentHref ? (
                <Link href={a.incidentHref} prefetch={false}>
                  Open incident →
                </Link>
              ) : (
                <span className="muted">no writing task</span>
              )}
              {a.delivered ? <div className="muted">sent to webhook</div> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
