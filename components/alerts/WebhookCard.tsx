"use client";

import { useId } from "react";
import type { Alerts } from "@/lib/contracts/alerts";
import { useDeliverAlerts } from "@/lib/client/use-alerts";
import styles from "./Alerts.module.css";
import { counted } from "@/lib/domain/words";
import { DisabledReason } from "@/components/shell/DisabledReason";

/** Where alerts go, the last tries (every one recorded), and a button to send the pending ones now. */
export function WebhookCard({ data }: { data: Alerts }) {
  const deliver = useDeliverAlerts();
  const pending = data.counts.undelivered;
  const whyId = useId();
  // Unconfigured, the sentence beside the button says why it is disabled; with nothing pending, this does.
  const nothingPending = data.webhook.configured && pending === 0 ? "nothing is pending" : null;
  return (
    <section className="card" aria-labelledby="webhook-title">
      <h2 id="webhook-title">Webhook</h2>
      <div className={styles.toolbar}>
        {data.webhook.configured ? (
          <span>
            Alerts are POSTed as JSON to <span className="mono">{data.webhook.target}</span>, retried with backoff.
          </span>
        ) : (
          <span className="muted" id={`${whyId}-unconfigured`}>
            No webhook configured: set REPARO_ALERT_WEBHOOK_URL (see docs/alerts.md).
          </span>
        )}
        <button
          type="button"
          onClick={() => deliver.mutate()}
          disabled={!data.webhook.configured || pending === 0 || deliver.isPending}
          aria-describedby={!data.webhook.configured ? `${whyId}-unconfigured` : nothingPending ? whyId : undefined}
        >
          {deliver.isPending ? "Sending…" : `Send ${counted(pending, "pending alert")}`}
        </button>
        <DisabledReason id={whyId} reason={nothingPending} />
      </div>
      {deliver.error ? (
        <div className="error-box" role="alert">
          Could not send: {deliver.error.message}
        </div>
      ) : null}
      {deliver.data ? (
        <p className="muted" role="status">
          Sent {deliver.data.sent}, failed {deliver.data.failed}, already delivered {deliver.data.skipped} ({deliver.data.tries} tries).
        </p>
      ) : null}
      {data.deliveries.length === 0 ? (
        <p className="empty">No delivery tried yet.</p>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th>When</th>
              <th>Alert</th>
              <th>Try</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {data.deliveries.slice(0, 10).map((d) => (
              <tr key={d.id}>
                <td className="nowrap">{d.at.slice(0, 19).replace("T", " ")}</td>
                <td className="mono">{d.alertId}</td>
                <td>{d.tryNumber}</td>
                <td>
                  {d.status}
                  {d.httpStatus ? ` (${d.httpStatus})` : ""}
                  {d.error && d.status === "failed" ? `: ${d.error}` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
