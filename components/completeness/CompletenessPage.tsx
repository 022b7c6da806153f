"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { CompletenessQuery } from "@/lib/contracts/completeness";
import { completenessUrl, useCompleteness, useDatasetOptions } from "@/lib/client/use-completeness";
import { EvidenceTable } from "./EvidenceTable";
import { FreshnessChart } from "./FreshnessChart";
import { FrontierCard } from "./FrontierCard";
import { PeriodPicker } from "./PeriodPicker";
import { ReasonsByDataset } from "./ReasonsByDataset";
import { ReasonsByUnit } from "./ReasonsByUnit";
import { VerdictCard } from "./VerdictCard";
import styles from "./Completeness.module.css";

function queryFrom(params: URLSearchParams): CompletenessQuery | null {
  const dataset = params.get("dataset");
  if (!dataset) return null;
  return { dataset, from: params.get("from") ?? undefined, to: params.get("to") ?? undefined };
}

/** The URL holds the dataset and period, so a certificate can be pasted into a ticket or a chat. */
export function CompletenessPage() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const query = queryFrom(new URLSearchParams(params.toString()));
  const datasets = useDatasetOptions();
  const cert = useCompleteness(query);
  const check = (q: CompletenessQuery) => {
    const next = new URLSearchParams({ dataset: q.dataset, ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}) });
    router.push(`${pathname}?${next}`);
  };
  return (
    <>
      {datasets.error ? (
        <div className="error-box" role="alert">
          Could not load the datasets: {datasets.error.message}
        </div>
      ) : null}
      {datasets.data ? (
        <PeriodPicker key={params.toString()} datasets={datasets.data.datasets} initial={query} onCheck={check} />
      ) : datasets.isPending ? (
        <div className="skeleton" aria-busy="true" aria-label="Loading the datasets" />
      ) : null}
      {query === null ? (
        <p className="notice">Choose a dataset and a period (a month, a week or a day), or paste a link that names them.</p>
      ) : cert.isPending ? (
        <div aria-busy="true" aria-label="Checking completeness">
          <div className="skeleton" style={{ width: "50%" }} />
          <div className="skeleton" />
        </div>
      ) : cert.error ? (
        <div className="error-box" role="alert">
          Could not check completeness: {cert.error.message}
        </div>
      ) : (
        <div className={`grid ${styles.results}`} style={{ opacity: cert.isPlaceholderData ? 0.6 : 1 }}>
          <VerdictCard data={cert.data} apiUrl={completenessUrl(query)} />
          {cert.data.verdict === "incomplete" ? (
            <details className={styles.details} data-testid="engineer-details">
              <summary>Engineer&apos;s details</summary>
              <div className="grid">
                <ReasonsByUnit byUnit={cert.data.byUnit} />
                <ReasonsByDataset data={cert.data} />
              </div>
            </details>
          ) : null}
          <FreshnessChart freshness={cert.data.freshness} />
          <FrontierCard frontiers={cert.data.frontiers} />
          <EvidenceTable evidence={cert.data.evidence} />
        </div>
      )}
    </>
  );
}
