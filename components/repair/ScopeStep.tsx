"use client";

import { counted } from "@/lib/domain/words";
import { nodeName } from "@/lib/domain/ids";
import Link from "next/link";
import { useId, useState } from "react";
import { useRecordScope } from "@/lib/client/incident-actions";
import { useScope } from "@/lib/client/use-repair";
import { describeRanges } from "@/components/units/describe-units";
import { ActionError } from "./ActionError";
import { DisabledReason } from "@/components/shell/DisabledReason";
import { ReasonField } from "./ReasonField";
import { ScopeGraph } from "./ScopeGraph";
import { ScopeMatrix } from "./ScopeMatrix";
import { StateBadge } from "@/components/shell/StateBadge";
import { StepActions } from "./StepActions";
import { allows, type StepProps } from "./step-props";
import styles from "./Wizard.module.css";
import { reasonProblem } from "@/lib/contracts/reason";

/** Step 1: the failed pairs and their downstream closure, what each node holds now, and what it waits on. */
export function ScopeStep({ id, incident, next }: StepProps) {
  const { data, error, isPending } = useScope(id);
  const record = useRecordScope(id);
  const [reason, setReason] = useState("");
  const [skip, setSkip] = useState<Set<string>>(new Set());
  const whyId = useId();
  if (isPending) return <div className="skeleton" aria-busy="true" />;
  if (error)
    return (
      <div className="error-box" role="alert">
        Could not compute the scope: {error.message}
      </div>
    );
  const seeds = incident.failedPairs.map((p) => p.nodeId).join(",");
  const units = incident.failedPairs.flatMap((p) => p.units).join(",");
  const adds = data.waitsOn.filter((w) => !skip.has(w.taskNodeId));
  const editable = allows(incident, "scope");
  const why = reasonProblem(reason);
  return (
    <>
      <p className="sub">
        The failed pairs and every (task, unit) downstream of them through the lineage&apos;s partition mappings: {counted(data.pairCount, "pair")}.{" "}
        <Link href={`/lineage?${new URLSearchParams({ node: seeds.split(",")[0]!, units })}`}>See it on the lineage graph →</Link>
      </p>
      <ScopeGraph scope={data} />
      <h3>What each dataset in scope holds now</h3>
      <ScopeMatrix scope={data} />
      <table className="data" data-testid="scope-table">
        <thead>
          <tr>
            <th>Node</th>
            <th>Units in scope</th>
            <th>Holds now</th>
          </tr>
        </thead>
        <tbody>
          {data.nodes.map((n) => (
            <tr key={n.nodeId} data-testid={`scope-${n.name}-${n.kind}`}>
              <td>
                <strong>{n.name}</strong>{" "}
                <span className="muted">
                  {n.kind} · {n.pipeline}
                  {n.seed ? " · failed" : ""}
                </span>
              </td>
              <td className="mono">
                {describeRanges(n.units)} <span className="muted">({n.unitCount})</span>
              </td>
              <td>
                {n.holdsNow.map((h) => (
                  <div key={h.state}>
                    <StateBadge state={h.state} /> <span className="mono">{describeRanges(h.units)}</span>
                  </div>
                ))}
                {n.sentOutside.map((s) => (
                  <div key={s} className="muted">
                    sent outside: {s}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.waitsOn.map((w) => (
        <div key={w.taskNodeId} className={styles.warning} data-testid="waits-on">
          <p style={{ margin: 0 }}>{w.reason}</p>
          <label>
            <input
              type="checkbox"
              checked={!skip.has(w.taskNodeId)}
              onChange={(e) =>
                setSkip((s) => {
                  const n = new Set(s);
                  if (e.target.checked) n.delete(w.taskNodeId);
                  else n.add(w.taskNodeId);
                  return n;
                })
              }
            />{" "}
            Add {nodeName(w.taskNodeId)} {w.units.join(", ")} to this incident
          </label>
        </div>
      ))}
      {editable ? <ReasonField id="scope-reason" label="Why this scope" value={reason} onChange={setReason} /> : null}
      <ActionError error={record.error} />
      <StepActions>
        {editable ? (
          <>
            <DisabledReason id={whyId} reason={why} />
            <button
              type="button"
              className={styles.primary}
              disabled={record.isPending || why !== null}
              aria-describedby={why ? whyId : undefined}
              onClick={() =>
                record.mutate(
                  { reason, addPairs: adds.map((w) => ({ taskNodeId: w.taskNodeId, units: w.units })) },
                  {
                    onSuccess: () => {
                      setReason("");
                      next();
                    },
                  },
                )
              }
            >
              {adds.length > 0 ? "Add and re-scope" : "Confirm scope →"}
            </button>
          </>
        ) : (
          <button type="button" onClick={next}>
            Next →
          </button>
        )}
      </StepActions>
    </>
  );
}
