import type { AuditEntryView } from "@/lib/contracts/audit";
import styles from "./Wizard.module.css";

/** Who did what, when and why: the incident's own audit entries, oldest first. */
export function Timeline({ entries }: { entries: AuditEntryView[] }) {
  if (entries.length === 0) return <p className="empty">Nothing recorded yet.</p>;
  return (
    <ol className={styles.timeline} data-testid="timeline">
      {entries.map((e) => (
        <li key={e.seq} data-testid={`timeline-${e.kind}`}>
          <div className={styles.kind}>{e.kind}</div>
          <div className="muted">
            {new Date(e.at).toLocaleString()} · {e.actor} ({e.actorRole})
          </div>
          <div>{e.reason}</div>
        </li>
      ))}
    </ol>
  );
}
