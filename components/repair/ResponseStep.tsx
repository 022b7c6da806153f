"use client";

import { useId } from "react";
import type { PlanOptions } from "@/lib/contracts/repair";
import { usePlanPreview } from "@/lib/client/use-repair";
import { counted } from "@/lib/domain/words";
import { BlockerCard } from "./BlockerCard";
import { DisabledReason } from "@/components/shell/DisabledReason";
import { MarkUnitsCard } from "./MarkUnitsCard";
import { ReplayAndOverrides } from "./ReplayAndOverrides";
import { StepActions } from "./StepActions";
import type { StepProps } from "./step-props";
import styles from "./Wizard.module.css";

const NAMES: Record<string, string> = {
  targeted: "Targeted repair of the failed units",
  targeted_with_closure: "Repair + downstream closure",
  recompute_forward: "Recompute forward from the earliest affected unit",
  full_rerun: "Full re-run",
  atomic_set_republish: "Atomic set republish",
  mark_known_bad: "Mark known-bad",
  skip_with_omission: "Skip with a recorded omission",
  mark_success: "Mark success",
};
const MARKS = new Set(["mark_known_bad", "skip_with_omission", "mark_success"]);

/** Step 3: only the responses whose preconditions hold are enabled; blockers are lifted by interventions. */
export function ResponseStep({ id, incident, next, back, options, setOptions }: StepProps & { options: PlanOptions; setOptions: (o: PlanOptions) => void }) {
  const { data, error, isPending } = usePlanPreview(id, options);
  const whyId = useId();
  if (isPending) return <div className="skeleton" aria-busy="true" />;
  if (error)
    return (
      <div className="error-box" role="alert">
        Could not plan: {error.message}
      </div>
    );
  const chosen = options.strategy ?? data.recommended;
  const why = data.runnable ? null : `${counted(data.blockers.length, "blocker")} above must be lifted first`;
  return (
    <>
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="sub">Choose a response. Disabled ones say which precondition fails.</legend>
        {data.options.map((o) => (
          <label key={o.strategy} className={styles.option} data-enabled={o.enabled} data-chosen={o.strategy === chosen} data-testid={`strategy-${o.strategy}`}>
            <input
              type="radio"
              name="strategy"
              value={o.strategy}
              checked={o.strategy === chosen}
              disabled={!o.enabled && !MARKS.has(o.strategy)}
              onChange={() => setOptions({ ...options, strategy: o.strategy })}
            />
            <span>
              <strong>{NAMES[o.strategy]}</strong>
              {o.recommended ? (
                <span className="badge" style={{ marginLeft: 8 }}>
                  recommended
                </span>
              ) : null}
              <div>
                <span className="muted">When it is right:</span> {o.when}
              </div>
              <div>
                <span className="muted">What it costs:</span> {o.cost}
              </div>
              {o.why.map((w) => (
                <p key={w.code} className={styles.why}>
                  {w.message}
                </p>
              ))}
            </span>
          </label>
        ))}
      </fieldset>
      {MARKS.has(chosen) ? (
        <MarkUnitsCard id={id} incident={incident} strategy={chosen} />
      ) : (
        <>
          <h3>Blockers</h3>
          {data.blockers.length === 0 ? (
            <p className={styles.ok} data-testid="no-blockers">
              Nothing blocks this plan.
            </p>
          ) : (
            data.blockers.map((b, i) => <BlockerCard key={`${b.code}-${i}`} id={id} incident={incident} blocker={b} />)
          )}
          <ReplayAndOverrides excluded={data.excluded} options={options} setOptions={setOptions} />
        </>
      )}
      <StepActions back={back}>
        {MARKS.has(chosen) ? null : (
          <>
            <DisabledReason id={whyId} reason={why} />
            <button
              type="button"
              className={styles.primary}
              disabled={!data.runnable}
              aria-describedby={why ? whyId : undefined}
              onClick={() => {
                setOptions({ ...options, strategy: chosen });
                next();
              }}
            >
              Preview the plan →
            </button>
          </>
        )}
      </StepActions>
    </>
  );
}
