import type { MatrixInvalidKey, MatrixSection } from "@/lib/contracts/units";
import { STATE_CODES } from "@/lib/contracts/units";
import { article } from "@/lib/domain/words";

const FAILED = STATE_CODES[2]!;

/**
 * Seed 002: a key the definition rejects cannot be repaired by re-running — it has to be fixed
 * where it was generated — so it is listed apart from valid keys that failed.
 */
export function KeyProblemsCards({ sections, invalidKeys }: { sections: MatrixSection[]; invalidKeys: MatrixInvalidKey[] }) {
  const failed = sections.flatMap((s) =>
    s.rows.flatMap((r) => [...r.cells].flatMap((c, i) => (c === FAILED ? [{ name: r.name, writer: r.writerNodeId, key: s.columns[i]! }] : []))),
  );
  return (
    <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(360px, 1fr))", gap: 16 }}>
      <section className="card" aria-labelledby="failed-keys-title">
        <h2 id="failed-keys-title">Valid keys that failed</h2>
        <p className="sub">Units the definition expects whose latest attempt failed: re-running can fix these.</p>
        {failed.length === 0 ? (
          <p className="empty">No failed unit in view.</p>
        ) : (
          <table className="data" data-testid="failed-keys">
            <thead>
              <tr>
                <th>Dataset</th>
                <th>Unit</th>
              </tr>
            </thead>
            <tbody>
              {failed.map((f) => (
                <tr key={`${f.name}|${f.key}`}>
                  <td>{f.name}</td>
                  <td className="mono">{f.key}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card" aria-labelledby="invalid-keys-title">
        <h2 id="invalid-keys-title">Invalid keys</h2>
        <p className="sub">Keys the partition definition rejects: not units at all, so no cell — fix them where they are generated.</p>
        {invalidKeys.length === 0 ? (
          <p className="empty">No invalid key in view.</p>
        ) : (
          <table className="data reflow" data-testid="matrix-invalid-keys">
            <thead>
              <tr>
                <th>Node</th>
                <th>Key</th>
                <th>Why it is invalid</th>
                <th>Seen in</th>
              </tr>
            </thead>
            <tbody>
              {invalidKeys.map((k) => (
                <tr key={`${k.nodeId}|${k.unitKey}`}>
                  <td className="mono wrap-anywhere" data-label="Node">
                    {k.nodeId}
                  </td>
                  <td className="mono wrap-anywhere" data-label="Key">
                    {k.unitKey}
                  </td>
                  <td data-label="Why it is invalid">{k.reason}</td>
                  <td data-label="Seen in">{k.source === "ledger" ? "the ledger" : `${article(k.source)} ${k.source} request`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
