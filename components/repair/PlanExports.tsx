"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import type { PlanExport } from "@/lib/contracts/orchestrators";
import { rovingTarget } from "@/components/matrix/roving-focus";
import styles from "./Wizard.module.css";

const TABS = [
  ["airflow", "Airflow clear"],
  ["dagster", "Dagster backfill"],
  ["databricks", "Databricks repair"],
  ["dbt", "dbt command"],
] as const;

type Tab = (typeof TABS)[number][0];

/**
 * The plan as each orchestrator's own request, to copy: WAI-ARIA tabs, one Tab stop, the arrows,
 * Home and End moving between them (and showing each at once), the panel focusable to scroll.
 */
export function PlanExports({ exports }: { exports: Record<Tab, PlanExport> }) {
  const [tab, setTab] = useState<Tab>("airflow");
  const [copied, setCopied] = useState(false);
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  // dbt's export is commands to run: shown as a shell script; the others as their request bodies.
  // Waves are counted from 1 here as on every screen (the API's `wave` field counts from 0).
  const text =
    tab === "dbt"
      ? dbtScript(exports.dbt)
      : JSON.stringify({ ...exports[tab], requests: exports[tab].requests.map((r) => ({ ...r, wave: r.wave + 1 })) }, null, 2);
  const show = (k: Tab) => {
    setTab(k);
    setCopied(false);
  };
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    // Tabs in a row: Left and Right (Up and Down stay the page's).
    const target = e.key === "ArrowUp" || e.key === "ArrowDown" ? null : rovingTarget(e.key, i, TABS.length);
    if (target === null) return;
    e.preventDefault();
    show(TABS[target]![0]);
    tabs.current[target]?.focus();
  };
  return (
    <div>
      <h3>The plan as your orchestrator&apos;s request</h3>
      <div className={styles.tabBar}>
        <div role="tablist" aria-label="Orchestrator" className={styles.tabList}>
          {TABS.map(([k, label], i) => (
            <button
              key={k}
              ref={(el) => {
                tabs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${k}`}
              aria-selected={tab === k}
              aria-controls={`${id}-panel`}
              tabIndex={tab === k ? 0 : -1}
              className={tab === k ? styles.primary : styles.button}
              onClick={() => show(k)}
              onKeyDown={(e) => onKeyDown(e, i)}
            >
              {label}
            </button>
          ))}
        </div>
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
      <pre className={styles.export} role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`} tabIndex={0} data-testid={`export-${tab}`}>
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
