"use client";

import type { ScopeView } from "@/lib/contracts/repair";
import { describeRanges } from "@/components/units/describe-units";
import { byPrecedence, stateColour } from "./scope-colours";
import styles from "./Scope.module.css";
import { counted } from "@/lib/domain/words";

/** The matrix of the scope: one row per dataset in scope, one cell per unit in its unit set, coloured by its state now. */
export function ScopeMatrix({ scope }: { scope: ScopeView }) {
  const rows = scope.nodes.filter((n) => n.kind === "dataset");
  const states = byPrecedence(rows.flatMap((r) => r.cells.map((c) => c.state)));
  if (rows.length === 0) return <p className="empty">No dataset in scope.</p>;
  return (
    <div data-testid="scope-matrix">
      <ul className={styles.legend} aria-label="Legend" data-testid="scope-matrix-legend">
        {states.map((s) => (
          <li key={s}>
            <span className={styles.swatch} style={{ background: stateColour(s) }} aria-hidden />
            {s.replace(/_/g, " ")}
          </li>
        ))}
      </ul>
      <table className={styles.matrix}>
        <tbody>
          {rows.map((r) => (
            <tr key={r.nodeId} data-testid={`scope-matrix-${r.name}`}>
              <th scope="row" title={r.nodeId}>
                {r.name}
              </th>
              <td>
                <div className={styles.cells} role="list" aria-label={`${r.name}: ${counted(r.cells.length, "unit")}`}>
                  {r.cells.map((c) => (
                    <span
                      key={c.key}
                      role="listitem"
                      className={styles.cell}
                      data-testid="scope-cell"
                      data-key={c.key}
                      data-state={c.state}
                      style={{ background: stateColour(c.state) }}
                      title={`${c.key}: ${c.state.replace(/_/g, " ")}`}
                      aria-label={`${c.key}: ${c.state.replace(/_/g, " ")}`}
                    />
                  ))}
                  {r.cells.length < r.unitCount ? <span className="muted">… {r.unitCount - r.cells.length} more</span> : null}
                  <span className={styles.range}>{describeRanges(r.units)}</span>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
