"use client";

import styles from "./Lineage.module.css";

/** Pipelines with a collapse switch each (the same as the button on each box in the graph). */
export function PipelineList({ pipelines, collapsed, onToggle }: { pipelines: { name: string; count: number }[]; collapsed: string[]; onToggle: (p: string) => void }) {
  return (
    <ul className={styles.pickList} aria-label="Pipelines">
      {pipelines.map((p) => (
        <li key={p.name}>
          <label className={styles.check}>
            <input type="checkbox" checked={collapsed.includes(p.name)} onChange={() => onToggle(p.name)} />
            collapse <strong>{p.name}</strong> <span className="muted">({p.count})</span>
          </label>
        </li>
      ))}
    </ul>
  );
}
