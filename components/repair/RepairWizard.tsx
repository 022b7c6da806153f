"use client";

import { useState } from "react";
import type { DispatchPreview } from "@/lib/contracts/orchestrators";
import type { PlanOptions } from "@/lib/contracts/repair";
import { useIncident } from "@/lib/client/use-incidents";
import { PageHeader } from "@/components/shell/PageHeader";
import { CloseStep } from "./CloseStep";
import { ExecuteStep } from "./ExecuteStep";
import { PlanStep } from "./PlanStep";
import { PreconditionsStep } from "./PreconditionsStep";
import { ResponseStep } from "./ResponseStep";
import { ScopeStep } from "./ScopeStep";
import { Timeline } from "./Timeline";
import { ValidateStep } from "./ValidateStep";
import { STEPS, stepForStatus } from "./wizard-steps";
import styles from "./Wizard.module.css";

/** The guided repair: one step per screen, back and forth allowed, the timeline beside it. */
export function RepairWizard({ id }: { id: string }) {
  const { data: incident, error, isPending } = useIncident(id);
  const [chosen, setStep] = useState<number | null>(null);
  const [options, setOptions] = useState<PlanOptions>({ replay: [], parameterOverrides: {} });
  // The Plan step's dry run, carried to the Execute step (the launch re-checks its digest).
  const [reviewed, setReviewed] = useState<{ preview: DispatchPreview; planKey: string } | null>(null);
  if (isPending) return <div aria-busy="true" aria-label="Loading the incident"><div className="skeleton" style={{ width: "40%" }} /><div className="skeleton" /></div>;
  if (error) return <div className="error-box" role="alert">Could not load incident {id}: {error.message}</div>;
  const step = chosen ?? stepForStatus(incident.status);
  const go = (n: number) => setStep(Math.max(0, Math.min(STEPS.length - 1, n)));
  const props = { id, incident, next: () => go(step + 1), back: () => go(step - 1) };
  return (
    <>
      <PageHeader title={incident.title} lead={<>Incident <span className="mono">{incident.id}</span> · <span data-testid="incident-status">{incident.status}</span> · opened by {incident.openedBy}{incident.pipeline ? ` · pipeline ${incident.pipeline}` : ""}</>} />
      <nav aria-label="Repair steps">
        <ol className={styles.steps}>
          {STEPS.map((name, i) => (
            <li key={name}>
              <button type="button" aria-current={i === step ? "step" : undefined} onClick={() => go(i)}>{i + 1}. {name}</button>
            </li>
          ))}
        </ol>
      </nav>
      <div className={styles.layout}>
        <section className="card" aria-labelledby="step-title">
          <h2 id="step-title">{step + 1}. {STEPS[step]}</h2>
          {step === 0 && <ScopeStep {...props} />}
          {step === 1 && <PreconditionsStep {...props} />}
          {step === 2 && <ResponseStep {...props} options={options} setOptions={(o) => { setReviewed(null); setOptions(o); }} />}
          {step === 3 && <PlanStep {...props} options={options} reviewed={reviewed} onReviewed={setReviewed} />}
          {step === 4 && <ExecuteStep {...props} reviewed={reviewed?.preview ?? null} />}
          {step === 5 && <ValidateStep {...props} />}
          {step === 6 && <CloseStep {...props} />}
        </section>
        <aside className="card" aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <Timeline entries={incident.timeline} />
        </aside>
      </div>
    </>
  );
}
