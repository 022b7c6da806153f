"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useOpenIncident } from "@/lib/client/incident-actions";
import styles from "./Incidents.module.css";
import { reasonProblem } from "@/lib/contracts/reason";

/**
 * Opens an incident: prefilled from a failure link (/incidents/new?node=<task>&units=<keys>,
 * keys comma-separated) or typed by hand. The server validates every key against the task's
 * partition definition and answers naming the bad one.
 */
export function NewIncidentForm({ node, units }: { node: string; units: string }) {
  const router = useRouter();
  const open = useOpenIncident();
  const [taskNodeId, setTask] = useState(node);
  const [keys, setKeys] = useState(units);
  const [title, setTitle] = useState("");
  const [reason, setReason] = useState("");
  const list = keys
    .split(/[,\s]+/)
    .map((k) => k.trim())
    .filter(Boolean);
  return (
    <form
      className={styles.form}
      aria-label="Open an incident"
      onSubmit={(e) => {
        e.preventDefault();
        open.mutate(
          { taskNodeId: taskNodeId.trim(), units: list, reason, ...(title.trim() ? { title } : {}) },
          { onSuccess: (i) => router.push(`/incidents/${encodeURIComponent(i.id)}`) },
        );
      }}
    >
      <label>
        Failed task (node id)
        <input value={taskNodeId} onChange={(e) => setTask(e.target.value)} placeholder="job:orders:stg_orders" required />
      </label>
      <label>
        Failed units (comma-separated keys, or a range like 2026-08-17..2026-08-20)
        <input value={keys} onChange={(e) => setKeys(e.target.value)} placeholder="2026-08-17" required />
      </label>
      <label>
        Title <span className="muted">(optional)</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label>
        Why you are opening it <span className="muted">(required, recorded)</span>
        <textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} required />
      </label>
      {open.error ? (
        <div className="error-box" role="alert">
          {open.error.message}
        </div>
      ) : null}
      <button type="submit" disabled={open.isPending || reasonProblem(reason) !== null || list.length === 0}>
        {open.isPending ? "Opening…" : "Open the incident"}
      </button>
    </form>
  );
}
