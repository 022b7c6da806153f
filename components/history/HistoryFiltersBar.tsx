"use client";

import type { History } from "@/lib/contracts/history";
import type { HistoryFilters } from "@/lib/client/use-history";
import styles from "./History.module.css";

interface Props {
  filters: HistoryFilters;
  options: History["filters"] | undefined;
  csvHref: string;
  onChange: (next: HistoryFilters) => void;
}

export function HistoryFiltersBar({ filters, options, csvHref, onChange }: Props) {
  const set = (key: keyof HistoryFilters, value: string) => onChange({ ...filters, [key]: value || undefined });
  const select = (key: "pipeline" | "task" | "owner", label: string, values: string[]) => (
    <label>
      {label}
      <select value={filters[key] ?? ""} onChange={(e) => set(key, e.target.value)}>
        <option value="">all</option>
        {[...new Set([...values, ...(filters[key] ? [filters[key]!] : [])])].map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form className={`card ${styles.filters}`} aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      {select("pipeline", "Pipeline", options?.pipelines ?? [])}
      {select("task", "Task", options?.tasks ?? [])}
      {select("owner", "Owner", options?.owners ?? [])}
      <label>
        From
        <input type="date" value={filters.from ?? ""} onChange={(e) => set("from", e.target.value)} />
      </label>
      <label>
        To
        <input type="date" value={filters.to ?? ""} onChange={(e) => set("to", e.target.value)} />
      </label>
      <a href={csvHref} download data-testid="csv-export">
        Export CSV
      </a>
    </form>
  );
}
