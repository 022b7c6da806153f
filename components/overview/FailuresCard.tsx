import { counted } from "@/lib/domain/words";
import Link from "next/link";
import { Name } from "@/components/shell/Name";
import type { OpenFailure } from "@/lib/contracts/overview";
import { compositeKey } from "@/lib/domain/composite-key";

function incidentHref(f: OpenFailure): string {
  return `/incidents/new?${new URLSearchParams({ node: f.taskNodeId, units: f.unitKey })}`;
}

function lineageHref(f: OpenFailure): string {
  return `/lineage?${new URLSearchParams({ node: f.taskNodeId, units: f.unitKey })}`;
}

export function FailuresCard({ failures }: { failures: OpenFailure[] }) {
  return (
    <section className="card" aria-labelledby="failures-title">
      <h2 id="failures-title">Open failures</h2>
      <p className="sub">(task, unit) pairs whose latest attempt failed and that nothing has published since.</p>
      {failures.length === 0 ? (
        <p className="empty">No open failures.</p>
      ) : (
        <table className="data reflow" data-testid="open-failures">
          <thead>
            <tr>
              <th>Task</th>
              <th>Unit</th>
              <th>Tries</th>
              <th>Left behind</th>
              <th>Error</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {failures.map((f) => (
              <tr key={compositeKey(f.taskNodeId, f.unitKey)} data-testid={`failure-${f.taskName}-${f.unitKey}`}>
                <td data-label="Task">
                  <Name>{f.taskName}</Name>
                  <div className="muted mono">{f.pipeline ?? "—"}</div>
                </td>
                <td className="mono" data-label="Unit">
                  {f.unitKey}
                </td>
                <td data-testid="failure-tries" data-label="Tries">
                  {f.tries}
                </td>
                <td data-label="Left behind">
                  {f.partialRows === null ? (
                    <span className="badge" data-testid="partial-write">
                      rows unknown: its producer reports no row counts
                    </span>
                  ) : f.partialRows > 0 ? (
                    <span className="badge" data-testid="partial-write">
                      partial write: {counted(f.partialRows, "row")} still readable
                    </span>
                  ) : (
                    <span className="muted">nothing written</span>
                  )}
                </td>
                <td className="mono wrap-anywhere" style={{ maxWidth: 320 }} data-label="Error">
                  {f.error ?? "—"}
                </td>
                <td className="nowrap">
                  <Link href={lineageHref(f)}>Blast radius →</Link>
                  <br />
                  <Link href={incidentHref(f)}>Plan a repair →</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
