"use client";

import { nodeName } from "@/lib/domain/ids";
import Link from "next/link";
import { useState } from "react";
import { AUDIT_KINDS } from "@/lib/contracts/audit";
import { useAuditList, useAuditVerify } from "@/lib/client/use-audit";
import styles from "./Audit.module.css";

/** A before/after value in words: "status: open, pairs: 19"; long lists are cut. */
function describe(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) return v.length > 3 ? `${v.slice(0, 3).map(describe).join(", ")} and ${v.length - 3} more` : v.map(describe).join(", ");
  if (typeof v === "object")
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${typeof x === "object" && x !== null ? `[${describe(x)}]` : String(x)}`)
      .join(", ");
  return String(v);
}

const targets = (ts: { nodeId: string; units: string[] }[]) => {
  const parts = ts.map(
    (t) => `${nodeName(t.nodeId)} ${t.units.length > 4 ? `${t.units.slice(0, 3).join(", ")} and ${t.units.length - 3} more` : t.units.join(", ")}`,
  );
  return parts.length > 3 ? `${parts.slice(0, 3).join("; ")}; and ${parts.length - 3} more` : parts.join("; ");
};

/** Every intervention, newest first, filtered; the chain's verification on top. */
export function AuditPage({ initial }: { initial: { kind: string; actor: string; incidentId: string } }) {
  const [filters, setFilters] = useState(initial);
  const { data, error, isPending } = useAuditList(filters);
  const verify = useAuditVerify();
  return (
    <>
      <div className={styles.verify} data-testid="audit-verify" role="status">
        {verify.isPending
          ? "Verifying the hash chain…"
          : verify.error
            ? `Could not verify: ${verify.error.message}`
            : verify.data.ok
              ? `Hash chain verified: ${verify.data.entries} entries, head ${verify.data.headHash?.slice(0, 12) ?? "—"}…`
              : `Hash chain BROKEN at ${verify.data.brokenCount === 1 ? "entry" : `${verify.data.brokenCount} entries, first`} ${verify.data.brokenAt?.seq}: ${verify.data.brokenAt?.reason}${
                  verify.data.brokenCount > 1
                    ? ` (also ${verify.data.broken
                        .slice(1, 6)
                        .map((b) => b.seq)
                        .join(", ")}${verify.data.brokenCount > 6 ? ", …" : ""})`
                    : ""
                }`}
      </div>
      <form className={styles.filters} aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <label>
          Kind
          <select value={filters.kind} onChange={(e) => setFilters({ ...filters, kind: e.target.value })}>
            <option value="">All kinds</option>
            {Object.keys(AUDIT_KINDS).map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor
          <input value={filters.actor} onChange={(e) => setFilters({ ...filters, actor: e.target.value.trim() })} placeholder="a person or token:name" />
        </label>
        <label>
          Incident
          <input value={filters.incidentId} onChange={(e) => setFilters({ ...filters, incidentId: e.target.value.trim() })} />
        </label>
      </form>
      {isPending ? (
        <div className="skeleton" aria-busy="true" />
      ) : error ? (
        <div className="error-box" role="alert">
          Could not load the audit log: {error.message}
        </div>
      ) : data.entries.length === 0 ? (
        <p className="empty">No interventions recorded{filters.kind || filters.actor || filters.incidentId ? " for these filters" : " yet"}.</p>
      ) : (
        <table className="data reflow" data-testid="audit-table">
          <thead>
            <tr>
              <th>#</th>
              <th>When</th>
              <th>Kind</th>
              <th>Who</th>
              <th>Why</th>
              <th>On what</th>
              <th>Before → after</th>
              <th>Incident</th>
            </tr>
          </thead>
          <tbody>
            {data.entries.map((e) => (
              <tr key={e.seq} data-testid={`audit-${e.kind}`}>
                <td data-label="#">{e.seq}</td>
                <td data-label="When" className="nowrap">
                  {new Date(e.at).toLocaleString()}
                </td>
                <td data-label="Kind" className={`mono ${styles.kind}`}>
                  {e.kind}
                </td>
                <td data-label="Who" className="wrap-anywhere">
                  {e.actor} <span className="muted">({e.actorRole})</span>
                </td>
                <td data-label="Why" className="wrap-anywhere">
                  {e.reason}
                </td>
                <td data-label="On what" className={`mono ${styles.targets}`}>
                  {targets(e.targets) || "—"}
                </td>
                <td data-label="Before → after" className={styles.change}>
                  <div>{describe(e.before)}</div>
                  <div>→ {describe(e.after)}</div>
                </td>
                <td data-label="Incident" className={styles.incident} data-testid="audit-incident">
                  {e.incidentId ? (
                    <>
                      <Link href={`/incidents/${encodeURIComponent(e.incidentId)}`} prefetch={false}>
                        {e.incident?.title ?? e.incidentId}
                      </Link>
                      {e.incident ? <span className="muted"> · {e.incident.status}</span> : null}
                    </>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
