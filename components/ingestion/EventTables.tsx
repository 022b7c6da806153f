import type { IngestionStatus } from "@/lib/contracts/ingestion";
import { Name } from "@/components/shell/Name";

const when = (iso: string) => new Date(iso).toISOString().replace("T", " ").slice(0, 19);

export function RecentEventsCard({ events }: { events: IngestionStatus["recentEvents"] }) {
  return (
    <section className="card" aria-labelledby="recent-title">
      <h2 id="recent-title">Last events received</h2>
      <p className="sub">Accepted OpenLineage events, newest first. Re-sent events are not stored twice.</p>
      {events.length === 0 ? (
        <p className="empty">No event received yet.</p>
      ) : (
        <table className="data reflow" data-testid="recent-events">
          <thead>
            <tr>
              <th>Received</th>
              <th>Type</th>
              <th>Job</th>
              <th>Run id</th>
              <th>Event time</th>
              <th>Sent by</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.eventHash}>
                <td className="nowrap mono" data-label="Received">
                  {when(e.receivedAt)}
                </td>
                <td data-label="Type">
                  <span className="badge">{e.eventType}</span>
                </td>
                <td className="mono" data-label="Job">
                  <Name strong={false}>{e.jobNodeId}</Name>
                </td>
                <td className="mono wrap-anywhere" data-label="Run id">
                  {e.runId}
                </td>
                <td className="nowrap mono" data-label="Event time">
                  {when(e.eventTime)}
                </td>
                <td className="mono wrap-anywhere" data-label="Sent by">
                  {e.submittedBy ?? "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function RejectedEventsCard({ rejected }: { rejected: IngestionStatus["rejectedEvents"] }) {
  return (
    <section className="card" aria-labelledby="rejected-title">
      <h2 id="rejected-title">Rejected events</h2>
      <p className="sub">Refused input and why; a refused event wrote nothing.</p>
      {rejected.length === 0 ? (
        <p className="empty">Nothing rejected.</p>
      ) : (
        <table className="data reflow" data-testid="rejected-events">
          <thead>
            <tr>
              <th>Received</th>
              <th>Field</th>
              <th>Reason</th>
              <th>Body (start)</th>
            </tr>
          </thead>
          <tbody>
            {rejected.map((r) => (
              <tr key={r.id}>
                <td className="nowrap mono" data-label="Received">
                  {when(r.receivedAt)}
                </td>
                <td className="mono wrap-anywhere" data-label="Field">
                  {r.fieldPath}
                </td>
                <td className="wrap-anywhere" data-label="Reason">
                  {r.reason}
                </td>
                <td className="mono muted" data-label="Body (start)" style={{ maxWidth: 280, wordBreak: "break-all" }}>
                  {r.excerpt || "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const PROBLEM_WORD: Record<IngestionStatus["lineageProblems"][number]["code"], string> = {
  degraded_edge: "degraded edge",
  cycle_cut: "cycle cut",
  bad_partitions: "definition",
  unknown_node: "unknown node",
  duplicate_node: "duplicate node",
};

export function LineageProblemsCard({ problems }: { problems: IngestionStatus["lineageProblems"] }) {
  return (
    <section className="card" aria-labelledby="lineage-problems-title">
      <h2 id="lineage-problems-title">Lineage problems</h2>
      <p className="sub">
        What producers sent that closures cannot take as declared. Nothing here stops a page: a degraded edge is walked as every unit (never fewer), a cycle is
        cut at the read that closed it. Fix the partition definitions or the mapping to make them exact.
      </p>
      {problems.length === 0 ? (
        <p className="empty">None: every edge is walked through its mapping.</p>
      ) : (
        <table className="data" data-testid="lineage-problems">
          <thead>
            <tr>
              <th>Kind</th>
              <th>What</th>
            </tr>
          </thead>
          <tbody>
            {problems.map((p, i) => (
              <tr key={i}>
                <td className="nowrap">
                  <span className="badge">{PROBLEM_WORD[p.code]}</span>
                </td>
                <td className="wrap-anywhere">{p.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
