"use client";

import { counted } from "@/lib/domain/words";
import { useId, useState } from "react";
import type { DispatchPreview } from "@/lib/contracts/orchestrators";
import type { PlanOptions } from "@/lib/contracts/repair";
import { useConfirmPlan } from "@/lib/client/incident-actions";
import { usePlanPreview } from "@/lib/client/use-repair";
import { describeRanges } from "@/components/units/describe-units";
import { ActionError } from "./ActionError";
import { DisabledReason } from "@/components/shell/DisabledReason";
import { DryRunPanel } from "./DryRunPanel";
import { PlanExports } from "./PlanExports";
import { ReasonField } from "./ReasonField";
import { StepActions } from "./StepActions";
import { allows, type StepProps } from "./step-props";
import styles from "./Wizard.module.css";
import { reasonProblem } from "@/lib/contracts/reason";

/** Step 4: the exact (task, unit) pairs by wave, the cost against a full re-run, warnings and exports; confirm. */
export function PlanStep({
  id,
  incident,
  next,
  back,
  options,
  reviewed,
  onReviewed,
}: StepProps & {
  options: PlanOptions;
  /** The dry run reviewed here, with the plan it was of: shown only while the plan is still that one. */
  reviewed: { preview: DispatchPreview; planKey: string } | null;
  onReviewed: (r: { preview: DispatchPreview; planKey: string } | null) => void;
}) {
  const { data, error, isPending } = usePlanPreview(id, options);
  const confirm = useConfirmPlan(id);
  const [reason, setReason] = useState("");
  const whyId = useId();
  if (isPending) return <div className="skeleton" aria-busy="true" />;
  if (error)
    return (
      <div className="error-box" role="alert">
        Could not plan: {error.message}
      </div>
    );
  const editable = allows(incident, "confirm_plan");
  const planKey = JSON.stringify([data.strategy, data.waves, options]);
  const why = data.runnable ? reasonProblem(reason) : `${counted(data.blockers.length, "blocker")} above must be lifted first`;
  return (
    <>
      <p className="sub" data-testid="plan-cost">
        Strategy <strong>{data.strategy.replace(/_/g, " ")}</strong>: recomputes <strong>{counted(data.cost.unitsRecomputed, "unit")}</strong> of{" "}
        {counted(data.cost.tasks, "task")}, against <strong>{data.cost.fullRerunUnits}</strong> for a full re-run of the same tasks.
      </p>
      {data.waves.map((w, i) => (
        <div key={i} className={styles.wave} data-testid={`wave-${i}`}>
          <strong>Wave {i + 1}</strong>
          <table className="data">
            <tbody>
              {w.map((p) => (
                <tr key={p.taskNodeId}>
                  <td style={{ width: "35%" }}>
                    {p.name} <span className="muted">{p.pipeline}</span>
                  </td>
                  <td className="mono">{describeRanges(p.keyRanges)}</td>
                  <td>
                    {counted(p.unitCount, "unit")}
                    {p.idempotencyKey ? ` · key ${p.idempotencyKey}` : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {data.excluded.map((e) => (
        <div key={e.taskNodeId} className={styles.warning} data-testid={`plan-excluded-${e.name}`}>
          Excluded: <strong>{e.name}</strong> <span className="mono">{describeRanges(e.keyRanges)}</span> — {e.reason}
        </div>
      ))}
      {Object.keys(data.parameterOverrides).length > 0 ? (
        <p>
          Parameter overrides: <span className="mono">{JSON.stringify(data.parameterOverrides)}</span>
        </p>
      ) : null}
      <h3>Warnings</h3>
      {data.warnings.length === 0 ? (
        <p className="empty">None.</p>
      ) : (
        data.warnings.map((w, i) => (
          <div key={i} className={styles.warning}>
            {w.message}
          </div>
        ))
      )}
      {data.blockers.map((b, i) => (
        <div key={i} className={styles.blocker}>
          {b.message}
        </div>
      ))}
      {allows(incident, "dry_run_plan") && data.runnable ? (
        <DryRunPanel
          key={planKey}
          id={id}
          of="plan"
          body={{ ...options, strategy: data.strategy }}
          reviewed={reviewed?.planKey === planKey ? reviewed.preview : null}
          onReviewed={(preview) => onReviewed(preview ? { preview, planKey } : null)}
        />
      ) : null}
      <PlanExports exports={data.exports} />
      {editable ? <ReasonField id="plan-reason" label="Why this plan" value={reason} onChange={setReason} /> : null}
      <ActionError error={confirm.error} />
      <StepActions back={back}>
        {editable ? (
          <>
            <DisabledReason id={whyId} reason={why} />
            <button
              type="button"
              className={styles.primary}
              disabled={confirm.isPending || why !== null}
              aria-describedby={why ? whyId : undefined}
              onClick={() => confirm.mutate({ ...options, strategy: data.strategy, reason }, { onSuccess: next })}
            >
              Confirm plan →
            </button>
          </>
        ) : (
          <button type="button" onClick={next}>
            Next →
          </button>
        )}
      </StepActions>
    </>
  );
}
