"use client";

import Link from "next/link";
import { useSyncExternalStore } from "react";
import { useIngestionStatus } from "@/lib/client/use-ingestion-status";
import { ClientConfigCard } from "./ClientConfigCard";
import { clientConfigs } from "./client-configs";
import { LineageProblemsCard, RecentEventsCard, RejectedEventsCard } from "./EventTables";

const noSubscription = () => () => {};

export function IngestionPage() {
  const status = useIngestionStatus();
  // The browser knows the address clients reach the console by; the server render uses a placeholder.
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "http://localhost:3000",
  );
  return (
    <div className="grid">
      <section className="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">Endpoint</h2>
        <p className="sub">
          OpenLineage RunEvents, DatasetEvents and JobEvents (one JSON event, a JSON array or NDJSON), at the path Marquez uses, checked against
          OpenLineage&apos;s own JSON Schema; the batch API of the spec at <span className="mono">/api/v1/lineage/batch</span>. Each producer sends its own
          ingest token as <span className="mono">Authorization: Bearer</span> (an admin creates one on <Link href="/settings/access">Access</Link> or with{" "}
          <span className="mono">npm run tokens -- create &lt;name&gt; --scope ingest</span>).
        </p>
        <p className="mono" data-testid="endpoint-url">
          <strong>POST {origin}/api/v1/lineage</strong>
        </p>
        {status.data ? (
          <p className="muted">
            {status.data.totals.events} events stored
            {status.data.totals.unfolded > 0 ? ` (${status.data.totals.unfolded} not folded into the ledger yet)` : ""} · {status.data.totals.rejected} rejected
          </p>
        ) : null}
      </section>
      <div className="grid cols-2">
        {clientConfigs(origin).map((c) => (
          <ClientConfigCard key={c.id} config={c} />
        ))}
      </div>
      {status.isError ? <p className="error-box">{status.error.message}</p> : null}
      {status.isPending ? <div className="skeleton" /> : null}
      {status.data ? (
        <>
          <LineageProblemsCard problems={status.data.lineageProblems} />
          <RecentEventsCard events={status.data.recentEvents} />
          <RejectedEventsCard rejected={status.data.rejectedEvents} />
        </>
      ) : null}
    </div>
  );
}
