"use client";

import { useId, useState, type FormEvent } from "react";
import type { CompletenessQuery, DatasetOption } from "@/lib/contracts/completeness";
import { monthOfPeriod, monthPeriod } from "./month-period";
import { DisabledReason } from "@/components/shell/DisabledReason";
import styles from "./Completeness.module.css";

interface Props {
  datasets: DatasetOption[];
  initial: CompletenessQuery | null;
  onCheck: (q: CompletenessQuery) => void;
}

/** Dataset and period: a month (for day and month grains) or any first/last key of the dataset. */
export function PeriodPicker({ datasets, initial, onCheck }: Props) {
  const [dataset, setDataset] = useState(initial?.dataset ?? "");
  const [from, setFrom] = useState(initial?.from ?? "");
  const [to, setTo] = useState(initial?.to ?? "");
  const id = useId();
  const chosen = datasets.find((d) => d.nodeId === dataset || d.name === dataset) ?? null;
  const [month, setMonth] = useState(() => (chosen ? monthOfPeriod(chosen, initial?.from, initial?.to) : ""));

  const pickMonth = (value: string) => {
    setMonth(value);
    const p = chosen ? monthPeriod(chosen, value) : null;
    if (p) {
      setFrom(p.from);
      setTo(p.to);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!dataset) return;
    onCheck({ dataset: chosen?.nodeId ?? dataset, from: from || undefined, to: to || undefined });
  };

  return (
    <form className={`card ${styles.picker}`} onSubmit={submit} aria-label="Dataset and period">
      <div className={styles.field}>
        <label htmlFor={`${id}-dataset`}>Dataset</label>
        <select id={`${id}-dataset`} value={chosen?.nodeId ?? dataset} onChange={(e) => setDataset(e.target.value)} required>
          <option value="">Choose a dataset…</option>
          {datasets.map((d) => (
            <option key={d.nodeId} value={d.nodeId}>
              {d.name} ({d.pipeline ?? "no pipeline"}
              {d.grain ? `, ${d.grain}` : ""})
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-month`}>Month</label>
        <input
          id={`${id}-month`}
          type="month"
          value={month}
          onChange={(e) => pickMonth(e.target.value)}
          disabled={!chosen || (chosen.grain !== "day" && chosen.grain !== "month")}
        />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-from`}>From key</label>
        <input
          id={`${id}-from`}
          value={from}
          onChange={(e) => {
            setFrom(e.target.value);
            setMonth(chosen ? monthOfPeriod(chosen, e.target.value, to) : "");
          }}
          placeholder={chosen?.firstKey ?? "first unit"}
          className="mono"
        />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-to`}>To key</label>
        <input
          id={`${id}-to`}
          value={to}
          onChange={(e) => {
            setTo(e.target.value);
            setMonth(chosen ? monthOfPeriod(chosen, from, e.target.value) : "");
          }}
          placeholder={chosen?.lastKey ?? "last unit"}
          className="mono"
        />
      </div>
      <button type="submit" disabled={!dataset} aria-describedby={dataset ? undefined : `${id}-why`}>
        Check completeness
      </button>
      <DisabledReason id={`${id}-why`} reason={dataset ? null : "choose a dataset first"} />
      {chosen?.firstKey ? (
        <p className="muted">
          Expected units: {chosen.firstKey} … {chosen.lastKey}
        </p>
      ) : null}
    </form>
  );
}
