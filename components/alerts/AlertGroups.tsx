import Link from "next/link";
import type { AlertGroupView } from "@/lib/contracts/alerts";
import { Name } from "@/components/shell/Name";
import styles from "./Alerts.module.css";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The alerts by root cause: one card per set of root units, what it reaches and why it is as
 * severe as it is, with one way in — the incident on its root (or the one already handling it).
 */
export function AlertGroups({ groups }: { groups: AlertGroupView[] }) {
  return (
    <ol className={styles.groups} data-testid="alert-groups">
      {groups.map((g) => (
        <li key={g.id} className={`${styles.group} ${styles[g.severity]}`} data-testid="alert-group">
          <h3 className={styles.groupTitle}>
            <span className={`${styles.severity} ${styles[`sev_${g.severity}`]}`}>{g.severity}</span> <span data-testid="alert-group-title">{g.title}</span>
          </h3>
          <p className="muted">
            {plural(g.members.length, "alert")} · reaches {plural(g.affectedUnits, "unit")} in {plural(g.affected.length, "dataset")}
            {g.severityWhy.length > 0 ? ` · ${g.severityWhy.join("; ")}` : ""}
          </p>
          {g.deliveredOutside.length > 0 ? (
            <p className={styles.delivered} data-testid="alert-group-delivered">
              Already delivered outside: {g.deliveredOutside.join("; ")} — tell its consumers.
            </p>
          ) : null}
          <details>
            <summary>What it reaches and which alerts it raised</summary>
            <div className={styles.groupDetails}>
              <ul aria-label="Datasets reached">
                {g.affected.map((a) => (
                  <li key={a.datasetNodeId}>
                    <Name>{a.name}</Name> <span className="muted">({plural(a.units, "unit")})</span>
                  </li>
                ))}
              </ul>
              <ul aria-label="Alerts in this group">
                {g.members.map((m) => (
                  <li key={m.id}>
                    {m.rule.replace(/_/g, " ")} on <Name>{m.datasetName}</Name> <span className="muted">({plural(m.unitCount, "unit")})</span>
                  </li>
                ))}
              </ul>
            </div>
          </details>
          <p>
            {g.handledBy ? (
              <Link href={`/incidents/${encodeURIComponent(g.handledBy.id)}`} data-testid="alert-group-handled">
                Being handled: {g.handledBy.title} →
              </Link>
            ) : g.incidentHref ? (
              <Link href={g.incidentHref} prefetch={false} data-testid="alert-group-open">
                Open an incident on the root cause →
              </Link>
            ) : (
              <span className="muted">No task writes the root: fix it at its source.</span>
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
