"use client";

import { useReactFlow } from "@xyflow/react";
import { useId, useMemo } from "react";
import { Name } from "@/components/shell/Name";
import type { LineageNode } from "@/lib/contracts/lineage";
import styles from "./Lineage.module.css";

const MAX_MATCHES = 8;

/** Find a node by name or id; a match centres the graph on it, Enter selects it. */
export function LineageSearch({
  nodes,
  query,
  onQuery,
  onSelect,
}: {
  nodes: LineageNode[];
  query: string;
  onQuery: (q: string) => void;
  onSelect: (id: string) => void;
}) {
  const flow = useReactFlow();
  const listId = useId();
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    return nodes.filter((n) => n.id.toLowerCase().includes(q)).slice(0, MAX_MATCHES);
  }, [nodes, query]);
  const show = (id: string) => flow.fitView({ nodes: [{ id }], duration: 300, maxZoom: 1.2 });
  return (
    <div className={styles.search}>
      <label htmlFor={`${listId}-input`} className="muted">
        Search
      </label>
      <input
        id={`${listId}-input`}
        type="search"
        value={query}
        placeholder="task or dataset name"
        aria-controls={matches.length > 0 ? listId : undefined}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && matches[0]) {
            show(matches[0].id);
            onSelect(matches[0].id);
          }
        }}
      />
      {matches.length > 0 ? (
        <ul id={listId} className={styles.matches} aria-label="Matching nodes">
          {matches.map((n) => (
            <li key={n.id}>
              <button
                type="button"
                className={styles.pick}
                onClick={() => {
                  show(n.id);
                  onSelect(n.id);
                }}
              >
                <Name strong={false}>{n.name}</Name>{" "}
                <span className="muted">
                  {n.kind} · <Name strong={false}>{n.pipeline}</Name>
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : query.trim() ? (
        <p className="muted">No node matches “{query}”.</p>
      ) : null}
    </div>
  );
}
