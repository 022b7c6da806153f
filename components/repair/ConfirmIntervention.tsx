"use client";

import { useId, useState, type ReactNode } from "react";
import { ActionError } from "./ActionError";
import { DisabledReason } from "@/components/shell/DisabledReason";
import { ReasonField } from "./ReasonField";
import styles from "./Wizard.module.css";
import { reasonProblem } from "@/lib/contracts/reason";

/**
 * Every intervention goes through this: it says what the system will believe afterwards,
 * takes a required reason, and only then sends the change.
 */
export function ConfirmIntervention({
  label,
  believe,
  onConfirm,
  pending,
  error,
  danger,
  testId,
  children,
}: {
  label: string;
  believe: ReactNode;
  onConfirm: (reason: string) => void;
  pending: boolean;
  error: Error | null;
  danger?: boolean;
  testId: string;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const id = useId();
  const why = reasonProblem(reason);
  if (!open)
    return (
      <button type="button" className={styles.button} onClick={() => setOpen(true)} data-testid={`${testId}-open`}>
        {label}
      </button>
    );
  return (
    <div className={styles.confirm} role="group" aria-label={label} data-testid={testId}>
      <p style={{ margin: "0 0 6px" }}>
        <strong>This will make the system believe:</strong> {believe}
      </p>
      {children}
      <ReasonField id={id} label="Why" value={reason} onChange={setReason} />
      <div className={styles.actions}>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <span className={styles.actionsEnd}>
          <DisabledReason id={`${id}-why`} reason={why} />
          <button
            type="button"
            className={danger ? styles.danger : styles.primary}
            disabled={pending || why !== null}
            aria-describedby={why ? `${id}-why` : undefined}
            onClick={() => onConfirm(reason)}
          >
            {pending ? "Recording…" : `Confirm: ${label.toLowerCase()}`}
          </button>
        </span>
      </div>
      <ActionError error={error} />
    </div>
  );
}
