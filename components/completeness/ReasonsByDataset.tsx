import type { Completeness } from "@/lib/contracts/completeness";
import { ReasonLinks } from "./ReasonLinks";
import { StateBadge } from "@/components/shell/StateBadge";
import { compositeKey } from "@/lib/domain/composite-key";

/** The same reasons by dataset: where in the upstream closure the problem sits. */
export function ReasonsByDataset({ data }: { data: Completeness }) {
  const groups = data.evidence
    .map((e) => ({ e, reasons: data.reasons.filter((r) => r.datasetNodeId === e.datasetNodeId) }))
    .filter((g) => g.reasons.length > 0);
  return (
    <section className="card" aria-labelledby="by-dataset-title">
      <h2 id="by-dataset-title">Reasons by dataset</h2>
      <p className="sub">The checked dataset first, then each upstream dataset with a unit that is not healthy.</p>
      <table className="data" data-testid="reasons-by-dataset">
        <thead>
          <tr>
            <th>Dataset</th>
            <th>Unit</th>
            <th>State</th>
            <th>Reason</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {groups.flatMap(({ e, reasons }) =>
            reasons.map((r, i) => (
              <tr key={compositeKey(r.datasetNodeId, r.unitKey)} data-testid={`reason-${r.datasetName}-${r.unitKey}`}>
                <td>
                  {i === 0 ? (
                    <>
                      <strong>{e.datasetName}</strong> <span className="muted">{e.role}</span>
                    </>
                  ) : null}
                </td>
                <td className="mono nowrap">{r.unitKey}</td>
                <td>
                  <StateBadge state={r.state} />
                  {r.gap ? <span className="muted"> gap</span> : null}
                </td>
                <td className="muted">{r.reason}</td>
                <td>
                  <ReasonLinks reason={r} />
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </section>
  );
}
