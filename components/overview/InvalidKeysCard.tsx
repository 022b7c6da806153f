import type { Overview } from "@/lib/contracts/overview";
import { Name } from "@/components/shell/Name";
import { compositeKey } from "@/lib/domain/composite-key";

export function InvalidKeysCard({ rows }: { rows: Overview["invalidKeys"] }) {
  return (
    <section className="card" aria-labelledby="invalid-title">
      <h2 id="invalid-title">Invalid unit keys</h2>
      <p className="sub">
        Keys the partition definition rejects. This is a different problem from a valid key that failed: the request was wrong, not the data.
      </p>
      {rows.length === 0 ? (
        <p className="empty">No invalid keys seen.</p>
      ) : (
        <table className="data reflow" data-testid="invalid-keys">
          <thead>
            <tr>
              <th>Node</th>
              <th>Key</th>
              <th>Why it is invalid</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={compositeKey(r.nodeId, r.unitKey)}>
                <td className="mono" data-label="Node">
                  <Name strong={false}>{r.nodeId}</Name>
                </td>
                <td className="mono" data-label="Key">
                  {r.unitKey}
                </td>
                <td data-label="Why it is invalid">{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
