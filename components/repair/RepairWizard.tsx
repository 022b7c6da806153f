"use client";

import Link from "next/link";
import { useRouter, useSelectedLayoutSegment } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { DispatchPreview } from "@/lib/contracts/orchestrators";
import type { PlanOptions } from "@/lib/contracts/repair";
import { useIncident } from "@/lib/client/use-incidents";
import { PageHeader } from "@/components/shell/PageHeader";
import { IncidentHeader } from "@/components/incidents/IncidentHeader";
import { CloseStep } from "./CloseStep";
import { CommunicateStep } from "./CommunicateStep";
import { ExecuteStep } from "./ExecuteStep";
import { PlanStep } from "./PlanStep";
import { PreconditionsStep } from "./PreconditionsStep";
import { ResponseStep } from "./ResponseStep";
import { ScopeStep } from "./ScopeStep";
import { Timeline } from "./Timeline";
import { ValidateStep } from "./ValidateStep";
import { STEP_SLUGS, STEPS, stepForActions, stepHref, stepOfSlug } from "./wizard-steps";
import styles from "./Wizard.module.css";

/** The guided repair: one step per screen, back and forth allowed, the timeline beside it. */
export function RepairWizard({ id }: { id: string }) {
  const { data: incident, error, isPending } = useIncident(id);
  // The step is the URL's (/incidents/{id}/{step}); the wizard lives in the incident's layout, so
  // the choices made on one step (options, the dry run reviewed) survive moving to another.
  const segment = useSelectedLayoutSegment();
  const chosen = stepOfSlug(segment);
  const router = useRouter();
  const [options, setOptions] = useState<PlanOptions>({ replay: [], parameterOverrides: {} });
  // The Plan step's dry run, carried to the Execute step (the launch re-checks its digest).
  const [reviewed, setReviewed] = useState<{ preview: DispatchPreview; planKey: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef<number | null>(null);
  const step = incident ? (chosen ?? stepForActions(incident.allowedActions)) : null;
  // A new step is a new screen: the focus goes to its heading (not to <body>, 40 Tabs from its
  // first control), without scrolling — the step opens at the page's top. Not on the first load.
  useEffect(() => {
    if (step === null) return;
    if (shown.current !== null && shown.current !== step) heading.current?.focus({ preventScroll: true });
    shown.current = step;
  }, [step]);
  if (isPending)
    return (
      <div aria-busy="true" aria-label="Loading the incident">
        <div className="skeleton" style={{ width: "40%" }} />
        <div className="skeleton" />
      </div>
    );
  if (error)
    return (
      <div className="error-box" role="alert">
        Could not load incident {id}: {error.message}
      </div>
    );
  if (step === null) return null;
  const go = (n: number) => {
    // Each step opens at its top, wherever the previous one was scrolled to.
    router.push(stepHref(id, Math.max(0, Math.min(STEPS.length - 1, n))), { scroll: false });
    window.scrollTo(0, 0);
  };
  const props = { id, incident, next: () => go(step + 1), back: () => go(step - 1) };
  return (
    <>
      <PageHeader
        title={incident.title}
        lead={
          <>
            Incident <span className="mono">{incident.id}</span> · <span data-testid="incident-status">{incident.status}</span> · opened by {incident.openedBy}
            {incident.pipeline ? ` · pipeline ${incident.pipeline}` : ""}
          </>
        }
      />
      <IncidentHeader incident={incident} />
      <nav aria-label="Repair steps">
        <ol className={styles.steps}>
          {STEPS.map((name, i) => (
            <li key={name}>
              <Link href={stepHref(id, i)} scroll={false} aria-current={i === step ? "step" : undefined} onClick={() => window.scrollTo(0, 0)}>
                {i + 1}. {name}
              </Link>
            </li>
          ))}
        </ol>
      </nav>
      <div className={styles.layout}>
        <section className={`card ${styles.step}`} aria-labelledby="step-title" data-step={STEP_SLUGS[step]}>
          <h2 id="step-title" ref={heading} tabIndex={-1} className={styles.stepTitle}>
            {step + 1}. {STEPS[step]}
          </h2>
          {step === 0 && <ScopeStep {...props} />}
          {step === 1 && <PreconditionsStep {...props} />}
          {step === 2 && (
            <ResponseStep
              {...props}
              options={options}
              setOptions={(o) => {
                setReviewed(null);
                setOptions(o);
              }}
            />
          )}
          {step === 3 && <PlanStep {...props} options={options} reviewed={reviewed} onReviewed={setReviewed} />}
          {step === 4 && <ExecuteStep {...props} reviewed={reviewed?.preview ?? null} />}
          {step === 5 && <ValidateStep {...props} />}
          {step === 6 && <CommunicateStep {...props} />}
          {step === 7 && <CloseStep {...props} />}
        </section>
        <aside className="card" aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <Timeline entries={incident.timeline} />
        </aside>
      </div>
    </>
  );
}
