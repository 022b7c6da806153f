import Link from "next/link";
import { Name } from "@/components/shell/Name";
import type { LedgerFinding } from "@/lib/contracts/overview";
import { describeRanges } from "@/components/units/describe-units";
import { compositeKey } from "@/lib/domain/composite-key";

const TITLES: Record<LedgerFinding["finding"], string> = {
  missing: "missing",
  duplicate: "duplicated",
  empty: "empty",
  divergent: "divergent from source",
  suspect: "suspect: built on a bad upstream unit",
};

export function FindingsCard({ findings }: { findings: LedgerFinding[] }) {
  return (
    <section className="card" aria-labelledby="findings-title">
      <h2 id="findings-title">What the ledger says</h2>
      <p className="sub">
        Expected units with no publish, units holding more than one copy, units published empty, and units whose row count is outside the tolerance band of
        their source count — independent of run status.
      </p>
      {findings.length === 0 ? (
        <p className="empty">Every expected unit is published once and non-empty.</p>
      ) : (
        <table className="data reflow" data-testid="ledger-findings">
          <thead>
            <tr>
              <th>Dataset</th>
              <th>Finding</th>
              <th>Units</th>
              <th>Evidence</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {findings.map((f) => (
              <tr key={compositeKey(f.datasetNodeId, f.finding)} data-testid={`finding-${f.datasetName}-${f.finding}`}>
                <td data-label="Dataset">
                  <Name>{f.datasetName}</Name>
                  <div className="muted mono">{f.pipeline ?? "—"}</div>
                </td>
                <td data-label="Finding">
                  <span className="badge">
                    <span className="dot" style={{ background: `var(--state-${f.finding})` }} />
                    {TITLES[f.finding]}
                  </span>
                </td>
                <td className="mono" data-testid="finding-units" data-label="Units">
                  {describeRanges(f.units)}
                  {f.rangesOmitted > 0 ? ` and ${f.rangesOmitted} more runs` : ""} <span className="muted">({f.unitCount})</span>
                </td>
                <td className="muted wrap-anywhere" data-label="Evidence">
                  {f.details.slice(0, 2).join("; ")}
                  {f.unitCount > 2 ? ` (+${f.unitCount - 2} more)` : ""}
                </td>
                <td>
                  <Link href={`/units?${new URLSearchParams({ dataset: f.datasetNodeId })}`}>Units →</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
