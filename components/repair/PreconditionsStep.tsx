"use client";

import { useId, useState } from "react";
import { useRecordPreconditions } from "@/lib/client/incident-actions";
import { usePreconditions } from "@/lib/client/use-repair";
import { ActionError } from "./ActionError";
import { DisabledReason } from "@/components/shell/DisabledReason";
import { ReasonField } from "./ReasonField";
import { StepActions } from "./StepActions";
import { allows, type StepProps } from "./step-props";
import styles from "./Wizard.module.css";
import { reasonProblem } from "@/lib/contracts/reason";

// The questions are asked so that "yes" is safe: the answer and what it means, in words.
const LABEL = { safe: "yes — safe", unsafe: "no — unsafe", unknown: "unknown — counted unsafe" } as const;

/** Step 2: per task in scope, the questions that decide whether re-running it is safe. */
export function PreconditionsStep({ id, incident, next, back }: StepProps) {
  const { data, error, isPending } = usePreconditions(id);
  const record = useRecordPreconditions(id);
  const [reason, setReason] = useState("");
  const whyId = useId();
  if (isPending) return <div className="skeleton" aria-busy="true" />;
  if (error)
    return (
      <div className="error-box" role="alert">
        Could not check the preconditions: {error.message}
      </div>
    );
  const editable = allows(incident, "review_preconditions");
  const why = reasonProblem(reason);
  return (
    <>
      <p className="sub">Unknown counts as unsafe. Each unsafe answer removes options at the next step, or needs an intervention.</p>
      {data.tasks.map((t) => (
        <div key={t.taskNodeId} style={{ marginBottom: 14 }} data-testid={`preconditions-${t.name}`}>
          <h3 style={{ margin: "6px 0" }}>
            {t.name}{" "}
            <span className="muted" style={{ fontWeight: 400 }}>
              {t.pipeline}
            </span>
          </h3>
          <table className="data">
            <tbody>
              {t.checks.map((c) => (
                <tr key={c.key} data-testid={`check-${t.name}-${c.key}`}>
                  <td style={{ width: "38%" }}>{c.question}</td>
                  <td className={styles[`verdict-${c.verdict}`]} style={{ width: "14%" }}>
                    {LABEL[c.verdict]}
                  </td>
                  <td>
                    {c.detail}
                    {c.howToKnow ? <div className="muted">How to make it known: {c.howToKnow}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {editable ? <ReasonField id="pre-reason" label="Review note" value={reason} onChange={setReason} /> : null}
      <ActionError error={record.error} />
      <StepActions back={back}>
        {editable ? (
          <>
            <DisabledReason id={whyId} reason={why} />
            <button
              type="button"
              className={styles.primary}
              disabled={record.isPending || why !== null}
              aria-describedby={why ? whyId : undefined}
              onClick={() => record.mutate({ reason }, { onSuccess: next })}
            >
              Record review →
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
