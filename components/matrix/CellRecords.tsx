import type { UnitDetail } from "@/lib/contracts/units";

const time = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 19) : "—");
const short = (id: string) => (id.length > 12 ? `${id.slice(0, 10)}…` : id);

/** Every publish, every attempt and every intervention of one unit, oldest first. */
export function CellRecords({ d }: { d: UnitDetail }) {
  return (
    <>
      <h3>Publishes ({d.publishes.length})</h3>
      {d.publishes.length === 0 ? (
        <p className="empty">None: the ledger has no publish of this unit.</p>
      ) : (
        <table className="data" data-testid="panel-publishes">
          <thead>
            <tr>
              <th>Run</th>
              <th>Published</th>
              <th>Input</th>
              <th>Code</th>
              <th>Rows</th>
            </tr>
          </thead>
          <tbody>
            {d.publishes.map((p, i) => (
              <tr key={i}>
                <td className="mono" title={p.runId}>
                  {short(p.runId)}
                  {p.runKind === "repair" ? " (repair)" : ""}
                </td>
                <td className="mono">{time(p.publishedAt)}</td>
                <td className="mono">{p.inputVersion ?? "—"}</td>
                <td className="mono">{p.codeVersion ?? "—"}</td>
                <td>{p.rowCount ?? "unknown"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Attempts ({d.attempts.length})</h3>
      {d.attempts.length === 0 ? (
        <p className="empty">No attempt recorded.</p>
      ) : (
        <table className="data" data-testid="panel-attempts">
          <thead>
            <tr>
              <th>Try</th>
              <th>Status</th>
              <th>Rows</th>
              <th>Error</th>
              <th>Started</th>
              <th>Ended</th>
            </tr>
          </thead>
          <tbody>
            {d.attempts.map((a, i) => (
              <tr key={i} title={`run ${a.runId}`}>
                <td>{a.tryNumber}</td>
                <td>{a.status.replace("_", " ")}</td>
                <td>{a.rowsWritten ?? "—"}</td>
                <td>{a.error ?? "—"}</td>
                <td className="mono">{time(a.startedAt)}</td>
                <td className="mono">{time(a.endedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Interventions ({d.interventions.length})</h3>
      {d.interventions.length === 0 ? (
        <p className="empty" data-testid="panel-no-interventions">
          No intervention has named this unit.
        </p>
      ) : (
        <ul data-testid="panel-interventions">
          {d.interventions.map((e) => (
            <li key={e.seq}>
              <strong>{e.kind}</strong> by {e.actor} at {time(e.at)}: {e.reason}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
