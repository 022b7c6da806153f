import styles from "./DisabledReason.module.css";

/**
 * Why the button beside it is disabled, in words on screen (not only in a tooltip a keyboard or
 * touch user never sees); the button names it with aria-describedby={id} while `reason` is set.
 * Nothing is rendered when the button is enabled.
 */
export function DisabledReason({ id, reason }: { id: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <span id={id} className={styles.reason} data-testid="disabled-reason">
      {reason.charAt(0).toUpperCase() + reason.slice(1)}
    </span>
  );
}
