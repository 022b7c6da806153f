"use client";

import { nodeName } from "@/lib/domain/ids";
import type { BlockerView } from "@/lib/contracts/repair";
import { useIncidentAction } from "@/lib/client/use-incidents";
import { ConfirmIntervention } from "./ConfirmIntervention";
import styles from "./Wizard.module.css";

const short = nodeName;

/** A blocker and the intervention that lifts it: clean an appended unit, or declare the task fixed to replace. */
export function BlockerCard({ id, blocker }: { id: string; blocker: BlockerView }) {
  const clean = useIncidentAction<{ taskNodeId: string; unitKey: string; reason: string }>(id, "clean-unit");
  const declare = useIncidentAction<{ taskNodeId: string; reason: string }>(id, "declare-replace");
  const r = blocker.resolution;
  return (
    <div className={styles.blocker} data-testid={`blocker-${blocker.code}`}>
      <p style={{ marginTop: 0 }}><strong>{blocker.code.replace(/_/g, " ")}</strong>: {blocker.message}</p>
      {r?.kind === "clean_unit" ? (
        <>
          {r.cleanable && !r.cleanable.possible ? <p className="muted" data-testid="not-cleanable">Reparo cannot clean these units itself: {r.cleanable.why}.</p> : null}
          {r.cleanable?.statement ? <p className="muted">Cleaning runs, in one warehouse transaction that counts the rows before and after: <code className="mono">{r.cleanable.statement}</code></p> : null}
          <ul style={{ listStyle: "none", padding: 0, display: "grid", gap: 8 }}>
            {r.rowsInUnits.map((u) => (
              <li key={u.unitKey} data-testid={`append-unit-${u.unitKey}`}>
                <span className="mono">{short(r.taskNodeId)} {u.unitKey}</span>:{" "}
                {u.rows === null
                  ? <strong data-testid="rows-in-unit">rows unknown (the warehouse is not connected)</strong>
                  : <><strong data-testid="rows-in-unit">{u.rows} {u.rows === 1 ? "row" : "rows"} already in the unit</strong>{u.rows > 0 ? " (left by the failed attempts)" : " (nothing to remove)"}</>}{" "}
                {r.cleanable?.possible ? (
                  <ConfirmIntervention testId={`clean-${u.unitKey}`} label={`Clean ${u.unitKey}`} pending={clean.isPending} error={clean.error} danger
                    believe={<>the {u.rows ?? "unknown number of"} rows of {short(r.taskNodeId)} {u.unitKey} are deleted from the warehouse now, so the repair&apos;s append writes exactly one copy. Until it runs, the unit holds nothing.</>}
                    onConfirm={(reason) => clean.mutate({ taskNodeId: r.taskNodeId, unitKey: u.unitKey, reason })} />
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {r ? (
        <ConfirmIntervention testId="declare-replace" label={`Declare ${short(r.taskNodeId)} fixed to replace`} pending={declare.isPending} error={declare.error}
          believe={<>{short(r.taskNodeId)}&apos;s code now overwrites its unit instead of appending: every future run, not just this repair, replaces the unit. Only true if the code was changed.</>}
          onConfirm={(reason) => declare.mutate({ taskNodeId: r.taskNodeId, reason })} />
      ) : null}
    </div>
  );
}
