import type { Completeness } from "@/lib/contracts/completeness";
import styles from "./Completeness.module.css";

export function VerdictCard({ data, apiUrl }: { data: Completeness; apiUrl: string }) {
  const complete = data.verdict === "complete";
  const units = new Set(data.reasons.map((r) => r.unitKey)).size;
  const gaps = data.reasons.filter((r) => r.gap).length;
  const upstream = data.evidence.filter((e) => e.role === "upstream").length;
  return (
    <section className={`card ${styles.verdict} ${complete ? styles.complete : styles.incomplete}`} aria-label="Verdict" data-testid="verdict">
      <div className={styles.verdictWord} data-testid="verdict-word">{complete ? "Complete" : "Incomplete"}</div>
      <div>
        <p>
          <strong>{data.dataset.name}</strong> for <span className="mono">{data.period.from} … {data.period.to}</span>: {data.expectedUnits} expected units,
          checked with {upstream} upstream dataset{upstream === 1 ? "" : "s"} it was built from.
        </p>
        <p className="muted">
          {complete
            ? "Every expected unit and every upstream unit is present, published once, non-empty, reconciled where a source count exists, not stale and not known-bad: this number can be quoted."
            : `${data.reasons.length} reason${data.reasons.length === 1 ? "" : "s"} across ${units} unit key${units === 1 ? "" : "s"}${gaps ? `, ${gaps} of them deliberate gaps (known-bad or skipped)` : ""}: do not quote this number as complete.`}
        </p>
        <p className={`muted ${styles.apiLink}`}>Checked {new Date(data.checkedAt).toLocaleString()} · the same certificate as JSON: <a href={apiUrl} className="mono">{apiUrl}</a></p>
      </div>
    </section>
  );
}
