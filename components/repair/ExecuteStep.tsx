"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import type { DispatchPreview } from "@/lib/contracts/orchestrators";
import { incidentKeys } from "@/lib/client/query-keys";
import { useCancelRepair, useLaunchRepair } from "@/lib/client/incident-actions";
import { useProgress } from "@/lib/client/use-repair";
import { counted } from "@/lib/domain/words";
import { ActionError } from "./ActionError";
import { ConfirmIntervention } from "./ConfirmIntervention";
import { DisabledReason } from "@/components/shell/DisabledReason";
import { DryRunPanel } from "./DryRunPanel";
import { RunFault } from "./RunFault";
import { Name } from "@/components/shell/Name";
import { StepActions } from "./StepActions";
import { allows, type StepProps } from "./step-props";
import styles from "./Wizard.module.css";
import { compositeKey } from "@/lib/domain/composite-key";

/** Step 5: launch the repair run (linked to the original), and watch every (task, unit) progress live. */
export function ExecuteStep({ id, incident, next, back, reviewed: fromPlan }: StepProps & { reviewed: DispatchPreview | null }) {
  const { data, error, isPending } = useProgress(id, { live: incident.status === "repairing" });
  const launch = useLaunchRepair(id);
  const cancel = useCancelRepair(id);
  const [again, setReviewed] = useState<DispatchPreview | null>(null);
  const qc = useQueryClient();
  // What the run allows (its lifecycle table, lib/domain/repair-run-lifecycle.ts): cancel while it
  // goes; resume after it ended short of every pair; validate once it ended.
  const runActions = data?.run?.allowedActions ?? [];
  const running = data?.run ? !runActions.includes("validate") : false;
  const stale = Boolean(data?.run) && !running && incident.status === "repairing";
  useEffect(() => {
    // The run ended, so the server moved the incident on: refresh what this page knows about it.
    if (stale) void qc.invalidateQueries({ queryKey: incidentKeys.detail(id) });
  }, [stale, qc, id]);
  // A run that did not finish every pair (a console stopped before takeover existed, or a pair
  // failed — say an append a killed attempt left half-written, now cleaned): run only the rest.
  const resumable = runActions.includes("resume");
  // The Plan step's review holds for a first launch of the plan it reviewed (the launch re-checks it); a resume is its own dry run.
  const carried = resumable ? null : fromPlan;
  const reviewed = again ?? carried;
  const cancelAnswer = cancel.data;
  const unconfirmed = cancelAnswer?.unconfirmed ?? [];
  const pct = data && data.total > 0 ? Math.round((data.done / data.total) * 100) : 0;
  const whyId = useId();
  const whyNotLaunch = reviewed !== null && !reviewed.dispatchable ? "the dry run found tasks that cannot be dispatched (above)" : null;
  const whyNotValidate = running ? "the repair is still running" : data?.run ? null : "nothing has run yet: launch the repair first";
  return (
    <>
      {error ? (
        <div className="error-box" role="alert">
          Could not read progress: {error.message}
        </div>
      ) : null}
      {allows(incident, "launch") ? (
        <>
          {allows(incident, "dry_run") ? <DryRunPanel id={id} of="confirmed" body={{ resume: resumable }} reviewed={carried} onReviewed={setReviewed} /> : null}
          <div className={styles.actionsStart}>
            <button
              type="button"
              className={styles.primary}
              disabled={launch.isPending || whyNotLaunch !== null}
              aria-describedby={whyNotLaunch ? `${whyId}-launch` : undefined}
              onClick={() => launch.mutate({ resume: resumable, ...(reviewed ? { preview: reviewed.digest } : {}) })}
              data-testid="launch"
            >
              {resumable
                ? "Resume: run the pairs not yet done"
                : reviewed && reviewed.requests.length > 0
                  ? "Dispatch the reviewed repair"
                  : "Launch the repair run"}
            </button>
            <DisabledReason id={`${whyId}-launch`} reason={whyNotLaunch} />
          </div>
        </>
      ) : null}
      <ActionError error={launch.error} />
      {data?.run ? (
        <div data-testid="progress">
          <p className={styles.runLine}>
            Repair <strong>#{data.run.repairNumber}</strong> · run <span className="mono">{data.run.id}</span> · repairs run{" "}
            <span className="mono">{data.run.rootRunId ?? "—"}</span> · <span data-testid="run-status">{data.run.status}</span>
          </p>
          <RunFault run={data.run} canLaunch={allows(incident, "launch")} />
          <div
            className={styles.progress}
            role="progressbar"
            aria-label="Repair progress"
            aria-valuemin={0}
            aria-valuemax={data.total}
            aria-valuenow={data.done}
          >
            <div style={{ width: `${pct}%` }} />
          </div>
          {data.dispatched.map((d) => (
            <p key={d.pipeline} data-testid={`dispatched-${d.pipeline}`}>
              Wave {d.wave + 1} of {d.pipeline} runs in {d.orchestrator}.
              {d.command ? (
                <>
                  {" "}
                  Run it in the dbt project now — its progress appears here once dbt-ol or an imported run_results.json reports it:{" "}
                  <code className="mono" data-testid="dbt-command">
                    {d.command}
                  </code>
                </>
              ) : null}
              {d.alternative ? (
                <>
                  {" "}
                  Or do every wave in one go with the failed run&apos;s own selection and vars (its target/run_results.json must still be in place):{" "}
                  <code className="mono" data-testid="dbt-retry">
                    {d.alternative}
                  </code>
                </>
              ) : null}
            </p>
          ))}
          <p data-testid="progress-count">
            {data.done} of {counted(data.total, "pair")} done · {data.succeeded} succeeded · {data.failed} failed or blocked
          </p>
          {runActions.includes("cancel") && allows(incident, "cancel_repair") ? (
            <ConfirmIntervention
              testId="cancel-repair"
              label="Cancel the repair"
              pending={cancel.isPending}
              error={cancel.error}
              danger
              believe={
                <>
                  repair #{data.run.repairNumber} stops: what its wave in flight still runs is stopped in each orchestrator (Airflow task instances marked
                  failed, Dagster backfills and Databricks runs cancelled; a dbt command you started must be stopped where it runs), nothing more is sent, and
                  its units are free again. What already finished stays and is validated; a resume later runs only the rest.
                </>
              }
              onConfirm={(reason) => cancel.mutate({ reason })}
            />
          ) : null}
          {cancelAnswer?.status === "cancelling" && running ? (
            <p className={styles.warning} data-testid="cancelling">
              Cancel requested: nothing more is sent; the console running this repair stops its wave in flight and ends it.
            </p>
          ) : null}
          {unconfirmed.length > 0 ? (
            <div className="error-box" role="alert" data-testid="cancel-unconfirmed">
              Cancelled in Reparo, but not every orchestrator confirmed the stop:
              <ul>
                {unconfirmed.map((u) => (
                  <li key={u} className="mono" style={{ overflowWrap: "anywhere" }}>
                    {u}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className={styles.tableScroll} role="region" aria-label="Progress of each pair" tabIndex={0}>
            <table className={`data reflow ${styles.pairs}`}>
              <thead>
                <tr>
                  <th>Wave</th>
                  <th>Task</th>
                  <th>Unit</th>
                  <th>Status</th>
                  <th>Rows</th>
                  <th>Detail</th>
                </tr>
              </thead>
              <tbody>
                {data.pairs.map((p) => (
                  <tr key={compositeKey(p.taskNodeId, p.unitKey)} data-testid={`pair-${p.name}-${p.unitKey}`}>
                    <td data-label="Wave">{p.wave + 1}</td>
                    <td data-label="Task">
                      <Name strong={false}>{p.name}</Name>
                    </td>
                    <td className="mono" style={{ whiteSpace: "nowrap" }} data-label="Unit">
                      {p.unitKey}
                    </td>
                    <td data-label="Status">{p.status.replace("_", " ")}</td>
                    <td data-label="Rows">{p.rows ?? "—"}</td>
                    <td className="mono" style={{ overflowWrap: "anywhere" }} data-label={p.error ? "Detail" : undefined}>
                      {p.error ?? ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : isPending && !error ? (
        <div aria-busy="true" aria-label="Loading the repair's progress">
          <div className="skeleton" />
        </div>
      ) : allows(incident, "launch") ? (
        <p className="muted">
          Nothing launched yet. The plan runs wave by wave in dependency order: in each pipeline&apos;s own orchestrator (after its dry run), or on this
          console&apos;s executor for the demo&apos;s pipelines.
        </p>
      ) : (
        <p className="empty">Confirm a plan first.</p>
      )}
      <StepActions back={back}>
        <DisabledReason id={`${whyId}-validate`} reason={whyNotValidate} />
        <button
          type="button"
          className={styles.primary}
          disabled={whyNotValidate !== null}
          aria-describedby={whyNotValidate ? `${whyId}-validate` : undefined}
          onClick={next}
        >
          Validate →
        </button>
      </StepActions>
    </>
  );
}
