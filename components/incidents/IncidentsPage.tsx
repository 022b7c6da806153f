"use client";

import { nodeName } from "@/lib/domain/ids";
import Link from "next/link";
import { useState } from "react";
import { useIncidentList } from "@/lib/client/use-incidents";
import styles from "./Incidents.module.css";
import { SeverityBadge } from "./SeverityBadge";

/** Incidents, filtered: open / closed / all, only mine, by pipeline. */
export function IncidentsPage() {
  const [filters, setFilters] = useState({ status: "open", mine: "0", pipeline: "" });
  const { data, error, isPending } = useIncidentList(filters);
  return (
    <>
      <form className={styles.filters} aria-label="Filter incidents" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.target.value })}>
            <option value="open">Open</option>
            <option value="closed">Closed</option>
            <option value="all">All</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={filters.mine === "1"} onChange={(e) => setFilters({ ...filters, mine: e.target.checked ? "1" : "0" })} /> Opened by me
        </label>
        <label>
          Pipeline
          <input value={filters.pipeline} placeholder="e.g. orders" onChange={(e) => setFilters({ ...filters, pipeline: e.target.value.trim() })} />
        </label>
        <Link href="/incidents/new" className={styles.newLink}>
          Open an incident by hand
        </Link>
      </form>
      {isPending ? (
        <div className="skeleton" aria-busy="true" />
      ) : error ? (
        <div className="error-box" role="alert">
          Could not load incidents: {error.message}
        </div>
      ) : data.incidents.length === 0 ? (
        <p className="empty">No incidents match. Open one from a failure on the overview, the lineage graph or the units matrix.</p>
      ) : (
        <table className="data reflow" data-testid="incident-list">
          <thead>
            <tr>
              <th>Severity</th>
              <th>Incident</th>
              <th>Status</th>
              <th>Commander</th>
              <th>Pipeline</th>
              <th>Failed pairs</th>
              <th>Repairs</th>
              <th>Opened</th>
            </tr>
          </thead>
          <tbody>
            {data.incidents.map((i) => (
              <tr key={i.id}>
                <td data-label="Severity" title={i.severity?.reasons.join("\n")}>
                  <SeverityBadge level={i.severity?.level ?? null} />
                  {i.severity?.source === "set" ? <span className="muted"> set</span> : null}
                </td>
                <td data-label="Incident">
                  <Link href={`/incidents/${encodeURIComponent(i.id)}`}>{i.title}</Link>
                </td>
                <td data-label="Status">
                  <span className="badge">{i.status}</span>
                </td>
                <td data-label="Commander">{i.commander.name ?? i.commander.userId}</td>
                <td data-label="Pipeline">{i.pipeline ?? "—"}</td>
                <td data-label="Failed pairs" className="mono">
                  {i.failedPairs.map((p) => `${nodeName(p.nodeId)} ${p.units.join(", ")}`).join("; ")}
                </td>
                <td data-label="Repairs">{i.repairs}</td>
                <td data-label="Opened">
                  {new Date(i.openedAt).toLocaleString()} by {i.openedBy}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
