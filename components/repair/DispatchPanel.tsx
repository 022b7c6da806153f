"use client";

import { useState } from "react";
import { useIncidentAction } from "@/lib/client/use-incidents";
import { ConfirmIntervention } from "./ConfirmIntervention";
import styles from "./Wizard.module.css";

/** Instead of the local executor: send the plan to the organisation's orchestrator (REPARO_DISPATCH_URL). */
export function DispatchPanel({ id }: { id: string }) {
  const dispatch = useIncidentAction<{ orchestrator: string; reason: string }>(id, "dispatch");
  const [orchestrator, setOrchestrator] = useState("airflow");
  return (
    <details style={{ marginTop: 12 }}>
      <summary>Or dispatch to your orchestrator</summary>
      <label className={styles.field} style={{ maxWidth: 240 }}>Orchestrator
        <select value={orchestrator} onChange={(e) => setOrchestrator(e.target.value)}>
          <option value="airflow">Airflow (clear task instances)</option>
          <option value="dagster">Dagster (partition backfill)</option>
          <option value="databricks">Databricks (runs/repair)</option>
        </select>
      </label>
      <ConfirmIntervention testId="dispatch" label="Dispatch" pending={dispatch.isPending} error={dispatch.error}
        believe={<>the orchestrator at the configured endpoint receives this plan&apos;s {orchestrator} request and runs it; Reparo records the call and learns the outcome from the ledger.</>}
        onConfirm={(reason) => dispatch.mutate({ orchestrator, reason })} />
      {dispatch.isSuccess ? <p className={styles.ok}>Dispatched.</p> : null}
    </details>
  );
}
