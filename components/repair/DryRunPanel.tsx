"use client";

import type { DispatchPreview } from "@/lib/contracts/orchestrators";
import type { PlanOptions } from "@/lib/contracts/repair";
import { useDispatchDryRun, usePlanDryRun } from "@/lib/client/incident-actions";
import { ActionError } from "./ActionError";
import styles from "./Wizard.module.css";

/**
 * The dry-run step of a repair that runs in the team's own orchestrator: what Airflow (or
 * Dagster, Databricks) says it would run for the confirmed plan, against the plan — extra
 * task instances (side-effecting ones first), planned pairs it would miss, tasks no request
 * can cover. The launch then carries this dry run's digest, so what runs is what was reviewed.
 */
export function DryRunPanel(
  props: {
    id: string;
    /** A review already made for this plan (at the Plan step), shown until the dry run is run again. */
    reviewed?: DispatchPreview | null;
    onReviewed: (preview: DispatchPreview | null) => void;
  } &
    /** `plan`: the plan the Plan step shows, before confirming (its options); `confirmed`: the confirmed plan. */
    ({ of: "plan"; body: PlanOptions } | { of: "confirmed"; body: { resume: boolean } }),
) {
  const { id, of, reviewed, onReviewed } = props;
  const ofPlan = usePlanDryRun(id);
  const ofConfirmed = useDispatchDryRun(id);
  const run = of === "plan" ? ofPlan : ofConfirmed;
  // Its repair.previewed entry joins the timeline: the hooks read the incident again.
  const ask = () => (props.of === "plan" ? ofPlan.mutate(props.body, { onSuccess: onReviewed }) : ofConfirmed.mutate(props.body, { onSuccess: onReviewed }));
  const p = run.data ?? reviewed ?? undefined;
  const sideEffects = p?.extra.filter((x) => x.sideEffect) ?? [];
  return (
    <section aria-labelledby="dry-run-h" data-testid="dry-run">
      <h3 id="dry-run-h">Dry run in the orchestrator</h3>
      <p className="muted">
        Asks each pipeline&apos;s orchestrator (Airflow, Dagster, Databricks) what it would run for this plan, without running anything, and compares it with
        the plan. A repair that runs there is dispatched only after this review
        {of === "plan" ? "; reviewed here, it carries over to the Execute step while the orchestrators' answer holds" : ""}.
      </p>
      {!run.data && reviewed ? (
        <p className="muted" data-testid="dry-run-carried">
          Reviewed at the Plan step (digest <span className="mono">{reviewed.digest.slice(0, 12)}</span>).
        </p>
      ) : null}
      <button type="button" className={styles.button} disabled={run.isPending} onClick={ask} data-testid="dry-run-button">
        {run.isPending ? "Asking…" : p ? "Run the dry run again" : "Run the dry run"}
      </button>
      <ActionError error={run.error} />
      {p ? (
        <div data-testid="dry-run-result">
          {p.requests.length === 0 && p.unsupported.length === 0 ? (
            <p data-testid="dry-run-local">
              No request goes to an orchestrator: every pipeline of this plan runs on this console&apos;s own executor (the demo&apos;s pipelines).
            </p>
          ) : (
            <p>
              {p.requests.length} {p.requests.length === 1 ? "request" : "requests"} will be sent
              {p.requests.length > 0 ? `, in ${new Set(p.requests.map((r) => r.wave)).size} waves` : ""}.
            </p>
          )}
          {sideEffects.length > 0 ? (
            <div className="error-box" role="alert" data-testid="dry-run-side-effects">
              The orchestrator would also run {sideEffects.length} side-effecting {sideEffects.length === 1 ? "task instance" : "task instances"} the plan
              leaves out: {sideEffects.map((x) => x.label).join(", ")}.
            </div>
          ) : null}
          {p.extra.length > sideEffects.length ? (
            <p className={styles.warning} data-testid="dry-run-extra">
              The orchestrator would also run, beyond the plan:{" "}
              {p.extra
                .filter((x) => !x.sideEffect)
                .map((x) => x.label)
                .join(", ")}
              .
            </p>
          ) : null}
          {p.missing.length > 0 ? (
            <p className={styles.warning} data-testid="dry-run-missing">
              Planned but not run by the orchestrator — these units would stay unrepaired ({p.missing.length}):{" "}
              {p.missing
                .slice(0, 20)
                .map((m) => `${m.name} ${m.unitKey}`)
                .join(", ")}
              {p.missing.length > 20 ? "…" : ""}.
            </p>
          ) : null}
          {p.unsupported.length > 0 ? (
            <div className="error-box" role="alert" data-testid="dry-run-unsupported">
              Cannot be dispatched: {p.unsupported.map((u) => `${u.name} (${u.pipeline}): ${u.reason}`).join("; ")}.
            </div>
          ) : null}
          {p.requests.length > 0 && p.extra.length === 0 && p.missing.length === 0 && p.unsupported.length === 0 ? (
            <p className={styles.ok} data-testid="dry-run-same">
              The orchestrator would run exactly the plan.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
