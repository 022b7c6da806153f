import type { Frontier } from "@/lib/contracts/completeness";

/**
 * Seed 002: a source read as independently paginated partitions is complete through the
 * minimum of its partitions' certificates, bounds kept exact — or, when no scalar is honest,
 * the vector of certificates with the reason.
 */
export function FrontierCard({ frontiers }: { frontiers: Frontier[] }) {
  if (frontiers.length === 0) return null;
  return (
    <section className="card" aria-labelledby="frontier-title" data-testid="frontiers">
      <h2 id="frontier-title">Paginated sources: merged frontier</h2>
      <p className="sub">Per-partition complete-through certificates (PUT /api/v1/frontier-certificates) merged by their minimum, never the maximum.</p>
      {frontiers.map((f) => (
        <div key={f.source}>
          <p>
            <strong className="mono">{f.source}</strong> (epoch {f.epoch}): <span data-testid="frontier-statement">{f.statement}</span>
          </p>
          <table className="data">
            <thead>
              <tr>
                <th>Partition</th>
                <th>Complete through</th>
                <th>Domain</th>
                <th>Generation</th>
                <th>Epoch</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {f.certificates.map((c) => (
                <tr key={c.partition}>
                  <td className="mono">{c.partition}</td>
                  <td className="mono">
                    {c.coordinate === null ? "no certified coordinate" : `${c.inclusive === null ? "?" : c.inclusive ? "≤" : "<"} ${c.coordinate}`}
                  </td>
                  <td>{c.domain}</td>
                  <td>{c.generation}</td>
                  <td>{c.epoch}</td>
                  <td className="muted">{c.updatedAt.slice(0, 19)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
