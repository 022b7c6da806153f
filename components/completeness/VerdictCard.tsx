import Link from "next/link";
import type { Completeness } from "@/lib/contracts/completeness";
import { counted } from "@/lib/domain/words";
import { PlainAnswer } from "./PlainAnswer";
import styles from "./Completeness.module.css";

export function VerdictCard({ data, apiUrl }: { data: Completeness; apiUrl: string }) {
  const complete = data.verdict === "complete";
  const upstream = data.evidence.filter((e) => e.role === "upstream").length;
  return (
    <section className={`card ${styles.verdict} ${complete ? styles.complete : styles.incomplete}`} aria-label="Verdict" data-testid="verdict">
      <div className={styles.verdictWord} data-testid="verdict-word">
        {complete ? "Complete" : "Incomplete"}
      </div>
      <div>
        <p>
          <strong>{data.dataset.name}</strong> for{" "}
          <span className="mono">
            {data.period.from} … {data.period.to}
          </span>
          : {counted(data.expectedUnits, "expected unit")}, checked with {counted(upstream, "upstream dataset")} it was built from.
        </p>
        {complete ? (
          <p className="muted">
            Every expected unit and every upstream unit is present, published once, non-empty, reconciled where a source count exists, not stale and not
            known-bad: this number can be quoted.
          </p>
        ) : (
          <>
            <p data-testid="verdict-summary">Do not quote this number as complete yet — {counted(data.byUnit.length, "problem")}:</p>
            <PlainAnswer byUnit={data.byUnit} />
          </>
        )}
        <p className={`muted ${styles.apiLink}`}>
          Checked {new Date(data.checkedAt).toLocaleString()} · the same certificate as JSON:{" "}
          <a href={apiUrl} className="mono">
            {apiUrl}
          </a>
          {" · "}
          <Link href={`/status/${encodeURIComponent(data.dataset.nodeId)}`}>its status line and badge, for a dashboard</Link>
        </p>
      </div>
    </section>
  );
}
