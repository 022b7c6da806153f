import type { ProgressView } from "@/lib/contracts/repair";
import styles from "./Wizard.module.css";

/**
 * Why the run stopped on an error — the peer and the cause in plain words, as the adapter put
 * them — and what happens next: asked again (while the run retries), or how to resume once the
 * cause is fixed. Pairs that did not run stay as they are in the table below: none counts as done.
 */
export function RunFault({ run, canLaunch }: { run: NonNullable<ProgressView["run"]>; canLaunch: boolean }) {
  const fault = run.fault;
  if (!fault) return null;
  if (run.allowedActions.includes("cancel"))
    return (
      <p className={styles.warning} role="status" data-testid="run-fault">
        The repair is waiting: {fault.message}. {fault.retryInSeconds !== null ? `Reparo asks again in ${fault.retryInSeconds} s` : "Reparo tries again"}{" "}
        {`(attempt ${fault.attempt} of ${fault.of}); then the run fails.`} Nothing that did not run counts as done. Fix the cause, or cancel the repair.
      </p>
    );
  return (
    <div className="error-box" role="alert" data-testid="run-fault">
      Repair #{run.repairNumber} {run.status === "cancelled" ? "was cancelled after" : "stopped on"}: {fault.message}.{" "}
      {run.allowedActions.includes("resume")
        ? canLaunch
          ? "Once the cause is fixed, “Resume” runs only the pairs not yet done."
          : "Once the cause is fixed, confirm the plan again at the Plan step; “Resume” here then runs only the pairs not yet done."
        : null}
    </div>
  );
}
