import type { ReactNode } from "react";
import styles from "./Wizard.module.css";

export function StepActions({ back, children }: { back?: () => void; children?: ReactNode }) {
  return (
    <div className={styles.actions}>
      {back ? (
        <button type="button" onClick={back}>
          ← Back
        </button>
      ) : (
        <span />
      )}
      <div className={styles.actionsEnd}>{children}</div>
    </div>
  );
}
