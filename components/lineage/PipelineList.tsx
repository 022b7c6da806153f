"use client";

import { Name } from "@/components/shell/Name";
import styles from "./Lineage.module.css";

/** Pipelines with a collapse switch each (the same as the button on each box in the graph). */
export function PipelineList({
  pipelines,
  collapsed,
  onToggle,
}: {
  pipelines: { name: string; count: number }[];
  collapsed: string[];
  onToggle: (p: string) => void;
}) {
  return (
    <ul className={styles.pickList} aria-label="Pipelines">
      {pipelines.map((p) => (
        <li key={p.name}>
          <label className={styles.check}>
            <input type="checkbox" checked={collapsed.includes(p.name)} onChange={() => onToggle(p.name)} />
            <span className={styles.checkText}>
              collapse <Name>{p.name}</Name> <span className="muted">({p.count})</span>
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}
