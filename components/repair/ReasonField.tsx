import { REASON_MAX, REASON_MIN } from "@/lib/contracts/reason";
import styles from "./Wizard.module.css";

/** A required reason: every recorded decision carries one. */
export function ReasonField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <label className={styles.reason} htmlFor={id}>
      <span>
        {label} <span className="muted">(required, recorded in the audit log)</span>
      </span>
      <textarea id={id} rows={2} value={value} onChange={(e) => onChange(e.target.value)} required minLength={REASON_MIN} maxLength={REASON_MAX} />
    </label>
  );
}
