"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { useOpenIncident } from "@/lib/client/incident-actions";
import { useRootCause } from "@/lib/client/use-incidents";
import styles from "./Incidents.module.css";
import { reasonProblem } from "@/lib/contracts/reason";
import { RootCausePanel, type RootCauseChoice } from "./RootCausePanel";
import { DisabledReason } from "@/components/shell/DisabledReason";

/** The value once it has stopped changing for `ms` (the root-cause walk is not asked on every keystroke). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * Opens an incident: prefilled from a failure link (/incidents/new?node=<task>&units=<keys>,
 * keys comma-separated) or typed by hand. The server validates every key against the task's
 * partition definition and answers naming the bad one. Before it is opened, the form shows where
 * the units come from (root cause first) and which open incident already handles them.
 */
export function NewIncidentForm({ node, units }: { node: string; units: string }) {
  const router = useRouter();
  const open = useOpenIncident();
  const [taskNodeId, setTask] = useState(node);
  const [keys, setKeys] = useState(units);
  const [title, setTitle] = useState("");
  const [reason, setReason] = useState("");
  const [choice, setChoice] = useState<RootCauseChoice>("follow");
  const whyId = useId();
  const list = keys
    .split(/[,\s]+/)
    .map((k) => k.trim())
    .filter(Boolean);
  const asked = useSettled({ task: taskNodeId.trim(), units: list.join(",") }, 300);
  const cause = useRootCause(asked.task, asked.units ? asked.units.split(",") : []);
  const view = cause.data;
  const follow = choice === "follow" && view?.followable === true;
  // Every pair it would hold is held already: submitting goes to that incident.
  const heldPairs = new Set(view?.heldBy.flatMap((h) => h.pairs.flatMap((p) => p.units.map((u) => `${p.nodeId} ${u}`))) ?? []);
  const wouldHold = follow || !view ? (view?.proposedPairs ?? []) : [{ nodeId: asked.task, units: list }];
  const why = list.length === 0 ? "name at least one failed unit first" : reasonProblem(reason);
  const allHeld = view !== undefined && wouldHold.length > 0 && wouldHold.every((p) => p.units.every((u) => heldPairs.has(`${p.nodeId} ${u}`)));
  return (
    <form
      className={styles.form}
      aria-label="Open an incident"
      onSubmit={(e) => {
        e.preventDefault();
        open.mutate(
          { taskNodeId: taskNodeId.trim(), units: list, reason, rootCause: choice, ...(title.trim() ? { title } : {}) },
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
      <RootCausePanel view={view} loading={cause.isFetching && !view} error={cause.error ? cause.error.message : null} choice={choice} onChoice={setChoice} />
      <label>
        Title <span className="muted">(optional)</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder={follow ? view?.title : undefined} />
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
      <button type="submit" disabled={open.isPending || why !== null} aria-describedby={why ? whyId : undefined}>
        {open.isPending ? "Opening…" : allHeld ? "Go to the incident that holds them" : "Open the incident"}
      </button>
      <DisabledReason id={whyId} reason={why} />
    </form>
  );
}
