import type { Completeness } from "@/lib/contracts/completeness";
import { describeRanges } from "@/components/units/describe-units";
import styles from "./Completeness.module.css";

/** "2026-08-02T02:16:00Z" → "2026-08-02 02:16". */
const publishedAt = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** What was checked: every dataset in the upstream closure, its units, rows and input versions. */
export function EvidenceTable({ evidence }: { evidence: Completeness["evidence"] }) {
  return (
    <section className="card" aria-labelledby="evidence-title">
      <h2 id="evidence-title">Evidence</h2>
      <p className="sub">
        Units read per dataset, and how many of them are healthy; rows are the latest publish of each healthy unit. Reconciled units had a source count to
        compare with.
      </p>
      {/* Eight columns scroll sideways inside the card when the window is narrow: focusable, so the
          keyboard scrolls them too (a scroll region nobody can reach by keyboard hides its columns). */}
      <div className={styles.evidenceScroll} role="region" aria-label="Evidence of each dataset" tabIndex={0}>
        <table className="data" data-testid="evidence">
          <thead>
            <tr>
              <th>Dataset</th>
              <th>Units read</th>
              <th>Healthy</th>
              <th>Rows</th>
              <th>Reconciled</th>
              <th>Input versions</th>
              <th>Published</th>
              <th>Notes</th>
            </tr>
          </thead>
          <tbody>
            {evidence.map((e) => (
              <tr key={e.datasetNodeId}>
                <td>
                  <strong>{e.datasetName}</strong> <span className="muted">{e.role}</span>
                </td>
                <td className="mono nowrap">{describeRanges(e.unitRanges)}</td>
                <td data-testid={`evidence-healthy-${e.datasetName}`}>{e.healthyUnits === e.units ? e.units : `${e.healthyUnits} of ${e.units}`}</td>
                <td>{e.rows.toLocaleString()}</td>
                <td>{e.reconciledUnits}</td>
                <td className="mono">{e.inputVersions.length > 3 ? `${e.inputVersions.length} versions` : e.inputVersions.join(", ") || "—"}</td>
                <td className="muted">
                  {e.oldestPublishAt ? (
                    <>
                      <span className={styles.keep}>{publishedAt(e.oldestPublishAt)} …</span>{" "}
                      <span className={styles.keep}>{publishedAt(e.newestPublishAt!)}</span>
                    </>
                  ) : (
                    "—"
                  )}
                </td>
                <td className="muted">
                  <div className={styles.notes}>
                    {e.notes.length > 1 ? (
                      <ul className={styles.reasonList}>
                        {e.notes.map((n) => (
                          <li key={n}>{n}</li>
                        ))}
                      </ul>
                    ) : (
                      (e.notes[0] ?? "—")
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
