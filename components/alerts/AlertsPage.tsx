"use client";

import { useAlerts } from "@/lib/client/use-alerts";
import { AlertGroups } from "./AlertGroups";
import { AlertsTable } from "./AlertsTable";
import { WebhookCard } from "./WebhookCard";
import { StatesNotice } from "@/components/shell/StatesNotice";

export function AlertsPage() {
  const { data, error, isPending } = useAlerts();
  if (isPending)
    return (
      <div aria-busy="true" aria-label="Loading the alerts">
        <div className="skeleton" />
        <div className="skeleton" style={{ width: "60%" }} />
      </div>
    );
  if (error)
    return (
      <div className="error-box" role="alert">
        Could not load the alerts: {error.message}
      </div>
    );
  return (
    <div className="grid">
      <StatesNotice states={data.states} />
      <div className="stats">
        <div className="stat" data-testid="stat-data-alerts">
          <div className="value">{data.counts.data}</div>
          <div className="label">data alerts (ledger, source counts)</div>
        </div>
        <div className="stat" data-testid="stat-task-alerts">
          <div className="value">{data.counts.task}</div>
          <div className="label">task alerts (still failing after the last try)</div>
        </div>
        <div className="stat">
          <div className="value">{data.defaultGraceHours} h</div>
          <div className="label">default grace after a unit&apos;s window closes</div>
        </div>
      </div>
      {data.groups.length > 0 ? (
        <section className="card" aria-labelledby="groups-title">
          <h2 id="groups-title">
            {data.groups.length === 1 ? "1 root cause" : `${data.groups.length} root causes`} behind {data.counts.task + data.counts.data} alerts
          </h2>
          <p className="sub">
            Each alert is walked upstream to the earliest wrong units it comes from; alerts that lead to the same units are one group, and repairing those
            clears them all.
          </p>
          <AlertGroups groups={data.groups} />
        </section>
      ) : null}
      <section className="card" aria-labelledby="alerts-title">
        <h2 id="alerts-title">Every alert now</h2>
        <p className="sub">
          A task alert goes silent when a retry succeeds — even one that appended a second copy — and never fires for a half-written unit whose task exited
          zero. Data alerts come from the ledger and the source counts, whatever the run status said.
        </p>
        {data.alerts.length === 0 && data.states.computing ? (
          <p className="empty">No alert in the datasets computed so far.</p>
        ) : data.alerts.length === 0 ? (
          <p className="empty">No alert: every expected unit is published once, non-empty, within its band and fresh.</p>
        ) : (
          <AlertsTable alerts={data.alerts} />
        )}
        {data.omitted > 0 ? (
          <p className="muted" role="status">
            Showing the first {data.alerts.length} of {data.alerts.length + data.omitted} alerts; the unit matrix filtered by state holds every unit.
          </p>
        ) : null}
      </section>
      <WebhookCard data={data} />
    </div>
  );
}
