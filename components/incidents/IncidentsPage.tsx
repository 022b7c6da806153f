"use client";

import { nodeName } from "@/lib/domain/ids";
import Link from "next/link";
import { useState } from "react";
import { useIncidentList } from "@/lib/client/use-incidents";
import styles from "./Incidents.module.css";

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
        <table className="data" data-testid="incident-list">
          <thead>
            <tr>
              <th>Incident</th>
              <th>Status</th>
              <th>Pipeline</th>
              <th>Failed pairs</th>
              <th>Repairs</th>
              <th>Opened</th>
            </tr>
          </thead>
          <tbody>
            {data.incidents.map((i) => (
              <tr key={i.id}>
                <td>
                  <Link href={`/incidents/${encodeURIComponent(i.id)}`}>{i.title}</Link>
                </td>
                <td>
                  <span className="badge">{i.status}</span>
                </td>
                <td>{i.pipeline ?? "—"}</td>
                <td className="mono">{i.failedPairs.map((p) => `${nodeName(p.nodeId)} ${p.units.join(", ")}`).join("; ")}</td>
                <td>{i.repairs}</td>
                <td>
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
