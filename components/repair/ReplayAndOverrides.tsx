"use client";

import { useId, useState } from "react";
import type { PlanOptions, PlannedTaskView } from "@/lib/contracts/repair";
import { describeRanges } from "@/components/units/describe-units";
import { DisabledReason } from "@/components/shell/DisabledReason";
import styles from "./Wizard.module.css";

/** Side-effecting tasks stay excluded unless replayed deliberately with an idempotency key; parameter overrides. */
export function ReplayAndOverrides({
  excluded,
  options,
  setOptions,
}: {
  excluded: PlannedTaskView[];
  options: PlanOptions;
  setOptions: (o: PlanOptions) => void;
}) {
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const whyId = useId();
  const why = key.trim() ? null : "name the parameter first";
  const replayed = options.replay.map((r) => r.taskNodeId);
  return (
    <>
      {/* The heading says what happens to them now: a replayed task is no longer excluded. */}
      <h3 data-testid="side-effects-heading">
        {replayed.length === 0
          ? "Excluded: external side effects"
          : excluded.length === 0
            ? "Replayed: external side effects"
            : "External side effects: excluded and replayed"}
      </h3>
      {excluded.length === 0 && replayed.length === 0 ? <p className="empty">No side-effecting task in scope.</p> : null}
      {excluded.map((e) => (
        <div key={e.taskNodeId} className={styles.warning} data-testid={`excluded-${e.name}`}>
          <strong>{e.name}</strong> <span className="mono">{describeRanges(e.keyRanges)}</span> — {e.reason}
          <ReplayToggle onReplay={(k) => setOptions({ ...options, replay: [...options.replay, { taskNodeId: e.taskNodeId, idempotencyKey: k }] })} />
        </div>
      ))}
      {options.replay.map((r) => (
        <div key={r.taskNodeId} className={styles.warning}>
          Replaying {r.taskNodeId} with idempotency key <span className="mono">{r.idempotencyKey}</span>{" "}
          <button type="button" onClick={() => setOptions({ ...options, replay: options.replay.filter((x) => x.taskNodeId !== r.taskNodeId) })}>
            Exclude again
          </button>
        </div>
      ))}
      <h3>Parameter overrides</h3>
      {Object.entries(options.parameterOverrides).map(([k, v]) => (
        <div key={k} className="mono">
          {k} = {v}
        </div>
      ))}
      <div style={{ display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }}>
        <label className={styles.field}>
          Parameter
          <input value={key} onChange={(e) => setKey(e.target.value)} />
        </label>
        <label className={styles.field}>
          Value
          <input value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        <button
          type="button"
          className={styles.button}
          disabled={why !== null}
          aria-describedby={why ? whyId : undefined}
          onClick={() => {
            setOptions({ ...options, parameterOverrides: { ...options.parameterOverrides, [key.trim()]: value } });
            setKey("");
            setValue("");
          }}
        >
          Add override
        </button>
        <DisabledReason id={whyId} reason={why} />
      </div>
    </>
  );
}

function ReplayToggle({ onReplay }: { onReplay: (key: string) => void }) {
  const [key, setKey] = useState("");
  const whyId = useId();
  const why = key.trim() ? null : "enter an idempotency key first";
  return (
    <div style={{ display: "flex", gap: 8, marginTop: 6, alignItems: "end", flexWrap: "wrap" }}>
      <label className={styles.field}>
        Idempotency key to replay it deliberately
        <input value={key} onChange={(e) => setKey(e.target.value)} />
      </label>
      <button type="button" className={styles.button} disabled={why !== null} aria-describedby={why ? whyId : undefined} onClick={() => onReplay(key.trim())}>
        Replay with this key
      </button>
      <DisabledReason id={whyId} reason={why} />
    </div>
  );
}
