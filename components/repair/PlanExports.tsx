"use client";

import { useState } from "react";
import type { PlanExport } from "@/lib/contracts/orchestrators";
import styles from "./Wizard.module.css";

const TABS = [
  ["airflow", "Airflow clear"],
  ["dagster", "Dagster backfill"],
  ["databricks", "Databricks repair"],
  ["dbt", "dbt command"],
] as const;

/** The plan as each orchestrator's own request, to copy. */
export function PlanExports({ exports }: { exports: Record<(typeof TABS)[number][0], PlanExport> }) {
  const [tab, setTab] = useState<(typeof TABS)[number][0]>("airflow");
  const [copied, setCopied] = useState(false);
  // dbt's export is commands to run: shown as a shell script; the others as their request bodies.
  // Waves are counted from 1 here as on every screen (the API's `wave` field counts from 0).
  const text =
    tab === "dbt"
      ? dbtScript(exports.dbt)
      : JSON.stringify({ ...exports[tab], requests: exports[tab].requests.map((r) => ({ ...r, wave: r.wave + 1 })) }, null, 2);
  return (
    <div>
      <h3>The plan as your orchestrator&apos;s request</h3>
      <div role="tablist" aria-label="Orchestrator" style={{ display: "flex", gap: 6, flexWrap: "wrap" }}>
        {TABS.map(([k, label]) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={tab === k}
            className={tab === k ? styles.primary : styles.button}
            onClick={() => {
              setTab(k);
              setCopied(false);
            }}
          >
            {label}
          </button>
        ))}
        <button
          type="button"
          className={styles.button}
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre className={styles.export} data-testid={`export-${tab}`}>
        {text}
      </pre>
    </div>
  );
}

function dbtScript(e: PlanExport): string {
  const retry = e.requests.find((r) => r.alternative)?.alternative;
  const lines = e.requests.map((r) => `# wave ${r.wave + 1} (${r.pipeline}): run once the previous wave has finished\n${r.path}`);
  if (retry)
    lines.unshift(`# every wave at once, with the failed run's own selection and vars (needs its target/run_results.json):\n${retry}\n# — or wave by wave:`);
  const missing = e.unsupported.map((u) => `# not covered: ${u.name} (${u.pipeline}) ${u.units.join(", ")} — ${u.reason}`);
  return [...lines, ...missing].join("\n\n") || "# nothing to run";
}
