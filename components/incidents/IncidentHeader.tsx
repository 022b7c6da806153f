"use client";

import { useId, useState } from "react";
import type { IncidentDetail, SeverityLevel } from "@/lib/contracts/incidents";
import { SEVERITY_LEVELS } from "@/lib/domain/incident-severity";
import { nodeName } from "@/lib/domain/ids";
import { useAssignCommander, useSetSeverity } from "@/lib/client/incident-actions";
import { ActionError } from "@/components/repair/ActionError";
import { ConfirmIntervention } from "@/components/repair/ConfirmIntervention";
import { allows } from "@/components/repair/step-props";
import wizard from "@/components/repair/Wizard.module.css";
import { SeverityBadge } from "./SeverityBadge";
import styles from "./IncidentHeader.module.css";

type Incident = Pick<IncidentDetail, "id" | "severity" | "commander" | "owners" | "allowedActions">;

/**
 * Who runs the incident, above its steps: the severity and why (the closure's facts, or the
 * person who set it and their reason, the computation kept beside it), the commander, and the
 * owners of what it reaches. Changing either is offered only where the lifecycle allows it.
 */
export function IncidentHeader({ incident }: { incident: Incident }) {
  return (
    <section className={`card ${styles.header}`} aria-label="Severity, commander and owners" data-testid="incident-header">
      <SeverityPart incident={incident} />
      <CommanderPart incident={incident} />
      <OwnersPart owners={incident.owners} />
    </section>
  );
}

function SeverityPart({ incident }: { incident: Incident }) {
  const s = incident.severity;
  const headingId = useId();
  return (
    <div className={styles.part} role="group" aria-labelledby={headingId}>
      <h2 id={headingId}>Severity</h2>
      <div className={styles.line}>
        <SeverityBadge level={s?.level ?? null} />
        <span data-testid="severity-source">
          {!s
            ? "not assessed: opened before severities were computed"
            : s.source === "set"
              ? `set by ${s.setBy}: ${s.reasons[0]}`
              : "computed from the closure:"}
        </span>
      </div>
      {s?.source === "computed" ? <Reasons reasons={s.reasons} /> : null}
      {s?.source === "set" ? (
        <details>
          <summary>
            Computed from the closure: <strong>{s.computed.level}</strong>
          </summary>
          <Reasons reasons={s.computed.reasons} />
        </details>
      ) : null}
      {allows(incident, "set_severity") ? <ChangeSeverity key={s?.setAt ?? "none"} incident={incident} /> : null}
    </div>
  );
}

function Reasons({ reasons }: { reasons: readonly string[] }) {
  return (
    <ul className={styles.reasons} data-testid="severity-reasons">
      {reasons.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
}

function ChangeSeverity({ incident }: { incident: Incident }) {
  const current = incident.severity?.level ?? "SEV3";
  const [level, setLevel] = useState<SeverityLevel>(current);
  const set = useSetSeverity(incident.id);
  const selectId = useId();
  return (
    <ConfirmIntervention
      label="Change severity"
      testId="change-severity"
      believe={`the incident is ${level}, set by you: kept over the computed level (${incident.severity?.computed.level ?? "none yet"}) until someone sets it again.`}
      onConfirm={(reason) => set.mutate({ severity: level, reason })}
      pending={set.isPending}
      error={set.error}
    >
      <label className={styles.field} htmlFor={selectId}>
        New severity
        <select id={selectId} value={level} onChange={(e) => setLevel(e.target.value as SeverityLevel)}>
          {SEVERITY_LEVELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
    </ConfirmIntervention>
  );
}

function CommanderPart({ incident }: { incident: Incident }) {
  const c = incident.commander;
  const headingId = useId();
  return (
    <div className={styles.part} role="group" aria-labelledby={headingId}>
      <h2 id={headingId}>Commander</h2>
      <div className={styles.line} data-testid="incident-commander">
        <span>
          <strong>{c.name ?? c.userId}</strong>
          {c.name ? <span className="muted"> ({c.userId})</span> : null}
        </span>
        <span className="muted">
          {c.assigned ? "assigned" : c.name ? "the opener, by default" : "opened by Reparo or a machine token: no person commands it yet — assign one"}
        </span>
      </div>
      {allows(incident, "assign") ? <AssignCommander key={c.userId} id={incident.id} /> : null}
    </div>
  );
}

function AssignCommander({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const [userId, setUserId] = useState("");
  const [reason, setReason] = useState("");
  const assign = useAssignCommander(id);
  const fieldId = useId();
  if (!open)
    return (
      <button type="button" className={wizard.button} onClick={() => setOpen(true)} data-testid="assign-commander-open">
        Assign
      </button>
    );
  return (
    <form
      aria-label="Assign the commander"
      data-testid="assign-commander"
      onSubmit={(e) => {
        e.preventDefault();
        assign.mutate({ userId: userId.trim(), ...(reason.trim() ? { reason: reason.trim() } : {}) });
      }}
    >
      <label className={styles.field} htmlFor={`${fieldId}-user`}>
        User id (an operator or above)
        <input id={`${fieldId}-user`} value={userId} onChange={(e) => setUserId(e.target.value)} autoComplete="off" required maxLength={200} />
      </label>
      <label className={styles.field} htmlFor={`${fieldId}-why`}>
        Why <span className="muted">(optional, recorded in the audit log)</span>
        <input id={`${fieldId}-why`} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
      </label>
      <div className={wizard.actions}>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button type="submit" className={wizard.primary} disabled={assign.isPending || userId.trim() === ""}>
          {assign.isPending ? "Recording…" : "Confirm: assign"}
        </button>
      </div>
      <ActionError error={assign.error} />
    </form>
  );
}

function OwnersPart({ owners }: { owners: Incident["owners"] }) {
  const headingId = useId();
  return (
    <div className={styles.part} role="group" aria-labelledby={headingId}>
      <h2 id={headingId}>Owners of what it reaches</h2>
      {owners.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          Unknown: no task or pipeline it reaches declares an owner (an Airflow DAG&apos;s owner, dbt&apos;s meta.owner, or the declaration file).
        </p>
      ) : (
        <ul className={styles.owners} data-testid="incident-owners">
          {owners.map((o) => (
            <li key={o.name}>
              <strong>{o.name}</strong>
              {o.people.length > 0 ? ` (${o.people.join(", ")})` : ""} <span className="muted">{[...new Set(o.nodeIds.map(nodeName))].join(", ")}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
