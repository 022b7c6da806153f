"use client";

import Link from "next/link";
import { usePipelineStatus } from "@/lib/client/use-completeness";
import type { PipelineStatusView } from "@/lib/contracts/dataset-status";
import { incidentDoing } from "@/lib/domain/plain-verdict";
import styles from "./Status.module.css";

const STATE_WORD: Record<PipelineStatusView["state"], string> = {
  complete: "Complete",
  incomplete: "Not complete",
  being_repaired: "Being repaired",
  unknown: "Expected units unknown",
};

/** A pipeline's status: one line for it, then each dataset it writes with its own line and page. */
export function PipelineStatusPage({ pipeline }: { pipeline: string }) {
  const status = usePipelineStatus(pipeline);
  if (status.error)
    return (
      <div className="error-box" role="alert">
        Could not read the status of {pipeline}: {status.error.message}
      </div>
    );
  if (!status.data) return <div className="skeleton" aria-busy="true" aria-label="Reading the status" />;
  const s = status.data;
  return (
    <div className={styles.page}>
      <section className={`card ${styles.status} ${styles[s.state]}`} aria-label="Status" data-testid="pipeline-status" data-state={s.state}>
        <div className={styles.word}>{STATE_WORD[s.state]}</div>
        <p className={styles.headline} data-testid="status-headline">
          {s.headline}
        </p>
        <p className="muted">Checked {new Date(s.checkedAt).toLocaleString()} (again every minute).</p>
      </section>
      <section className="card" aria-label="Datasets">
        <h2>What it writes</h2>
        <ul className={styles.problems} data-testid="pipeline-datasets">
          {s.datasets.map((d) => (
            <li key={d.nodeId}>
              <Link href={d.page}>
                <strong>{d.name}</strong>
              </Link>
              <span className={`${styles.chip} ${styles[`chip_${d.state}`]}`}>{STATE_WORD[d.state].toLowerCase()}</span>
              <div className={styles.headline}>{d.headline}</div>
            </li>
          ))}
        </ul>
      </section>
      {s.incidents.length > 0 ? (
        <section className="card" aria-label="Open incidents">
          <h2>Open incidents on its units</h2>
          <ul className={styles.problems}>
            {s.incidents.map((i) => (
              <li key={i.id}>
                <Link href={i.href}>{i.title}</Link> {incidentDoing(i.status)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
