import { useMemo } from "react";
import type { MatrixInvalidKey, MatrixSection } from "@/lib/contracts/units";
import { STATE_CODES } from "@/lib/contracts/units";
import { article } from "@/lib/domain/words";
import { Name } from "@/components/shell/Name";
import { compositeKey } from "@/lib/domain/composite-key";

const FAILED = STATE_CODES[2]!;
/**
 * At most this many failed units are listed, the latest first: ten years of a large world hold
 * thousands (3,762 in the 10,950,000-cell bench world), and a table of them all cost the page
 * ~1 s of script and layout before its first paint. The legend's *failed* shows every one in the matrix.
 */
export const LISTED = 100;

/** Every failed cell of the sections (found with indexOf: no array per cell), the latest key first. */
export function failedUnits(sections: readonly MatrixSection[]): { name: string; writer: string | null; key: string }[] {
  const out: { name: string; writer: string | null; key: string }[] = [];
  for (const s of sections)
    for (const r of s.rows)
      for (let i = r.cells.indexOf(FAILED); i >= 0; i = r.cells.indexOf(FAILED, i + 1)) out.push({ name: r.name, writer: r.writerNodeId, key: s.columns[i]! });
  return out.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : a.name.localeCompare(b.name)));
}

/**
 * Seed 002: a key the definition rejects cannot be repaired by re-running — it has to be fixed
 * where it was generated — so it is listed apart from valid keys that failed.
 */
export function KeyProblemsCards({ sections, invalidKeys }: { sections: MatrixSection[]; invalidKeys: MatrixInvalidKey[] }) {
  const failed = useMemo(() => failedUnits(sections), [sections]);
  const shown = failed.slice(0, LISTED);
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
              {shown.map((f) => (
                <tr key={compositeKey(f.name, f.key)}>
                  <td>{f.name}</td>
                  <td className="mono">{f.key}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {failed.length > shown.length ? (
          <p className="muted" data-testid="failed-keys-more">
            The latest {shown.length} of {failed.length.toLocaleString("en")} failed units; press <em>failed</em> in the legend to see every one in the matrix.
          </p>
        ) : null}
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
                <tr key={compositeKey(k.nodeId, k.unitKey)}>
                  <td className="mono" data-label="Node">
                    <Name strong={false}>{k.nodeId}</Name>
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
